/**
 * Size caps of the free texts a listing stores and every search page serves. Collectors sometimes
 * send a whole page, or megabytes of repeated text, as a description: stored as is, it would be sent
 * in every page that lists the listing. A text above its cap is cut (at a word boundary when there is
 * one near the cap) and ends with TRUNCATION_MARK; the load counts the records it cut
 * (`texts_truncated` in its report). The caps are far above real listings (docs/indexer.md).
 */
import type { NormalisedRecord } from './normalise.js';

export const TEXT_CAPS = { title: 300, description: 10_000 } as const;
export const TRUNCATION_MARK = ' […]';

/** The record with its texts within TEXT_CAPS, and the names of the fields it cut. */
export function capTexts(record: NormalisedRecord): { record: NormalisedRecord; cut: string[] } {
  const cut: string[] = [];
  let content = record.content;
  for (const [field, cap] of Object.entries(TEXT_CAPS) as [keyof typeof TEXT_CAPS, number][]) {
    const text = content[field];
    if (typeof text !== 'string' || text.length <= cap) continue;
    content = { ...content, [field]: capText(text, cap) };
    cut.push(field);
  }
  return { record: cut.length === 0 ? record : { ...record, content }, cut };
}

export function capText(text: string, cap: number): string {
  let end = cap - TRUNCATION_MARK.length;
  // Never split a surrogate pair.
  if (/[\uD800-\uDBFF]/.test(text[end - 1])) end--;
  const space = text.lastIndexOf(' ', end);
  if (space > end - 100) end = space;
  return text.slice(0, end).trimEnd() + TRUNCATION_MARK;
}
