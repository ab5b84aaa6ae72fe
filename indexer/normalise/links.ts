/**
 * Generated titles, image lists, URLs and the legal information block.
 */
import type { PropertyType } from '../../src/core/model/annonce.js';
import type { RawRecord } from '../raw-record.js';
import { redactContacts } from '../redact.js';
import { cleanText, textOf } from './text.js';
import { formatFrenchNumber } from './numbers.js';

/** "Appartement 3 pièces 65 m² à Lyon" from what is known. */
export function generatedTitle(type: PropertyType, rooms: number | null, surface: number | null, city: string | null): string {
  let title = type === 'Autre' ? 'Bien' : type;
  if (rooms !== null) title += ` ${rooms} ${rooms > 1 ? 'pièces' : 'pièce'}`;
  if (surface !== null) title += ` ${formatFrenchNumber(surface, 2, false)} m²`;
  if (city !== null) title += ` à ${city}`;
  return title;
}

export const HTTP_URL = /^https?:\/\/[^\s/?#]+/i;
/** Collectors join photo URLs with `|`, `,`, `;` or whitespace; a comma inside a URL (CDN resize
 * parameters like `w_300,h_200`) is kept, only one followed by the next URL splits. */
const IMAGE_SEPARATOR = /[|\s]+|[,;]\s*(?=(?:https?:)?\/\/)/i;
const URL_TRAILING_PUNCTUATION = /[,;]+$/;

export function imagesOf(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  const pieces = typeof value === 'string' ? value.split(IMAGE_SEPARATOR) : Array.isArray(value) ? value : [];
  const images: string[] = [];
  const seen = new Set<string>();
  for (const piece of pieces) {
    if (typeof piece !== 'string') continue;
    for (const part of typeof value === 'string' ? [piece] : piece.split(IMAGE_SEPARATOR)) {
      let url = part.replace(URL_TRAILING_PUNCTUATION, '');
      if (url.startsWith('//')) url = `https:${url}`;
      if (HTTP_URL.test(url) && !seen.has(url)) {
        seen.add(url);
        images.push(url);
      }
    }
  }
  return images;
}

export function urlOf(value: unknown): string | null {
  const text = textOf(value);
  if (text === null) return null;
  const url = text.startsWith('//') ? `https:${text}` : text;
  return HTTP_URL.test(url) ? url : null;
}

const CONTACT_KEY = /phone|t[ée]l[ée]?phone|\btel\b|mail|contact|portable|mobile|fax/i;

/** Legal information as given, a text or an object, with contact data taken out of it. */
export function legalInfoOf(value: RawRecord['legal_info']): string | Record<string, unknown> | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    const text = cleanText(value);
    return text === null ? null : redactContacts(text);
  }
  const info: Record<string, unknown> = {};
  for (const [key, entry] of Object.entries(value)) {
    if (CONTACT_KEY.test(key)) continue;
    info[key] = typeof entry === 'string' ? redactContacts(entry) : entry;
  }
  return Object.keys(info).length > 0 ? info : null;
}
