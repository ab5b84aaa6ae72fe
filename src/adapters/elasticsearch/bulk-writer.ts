/**
 * Indexer writes as `_bulk` requests: sized by bytes (`flushBytes`), a few in flight, per-item status.
 * The bodies are built here rather than by the client's bulk helper, which grows each body a line at
 * a time (requestBodies).
 *
 * One retry policy, ours, with exponential backoff and jitter (the transport's immediate 502/503/504
 * retries are turned off so they do not multiply it):
 * - an item refused with 429 (or a 5xx item) is sent again, alone with the other refused items;
 * - a whole request refused with 429/5xx, or a cluster that cannot be reached, sends the batch again
 *   minus the items already refused for good. Re-sending an item that was written is harmless: it is
 *   the same document at the same version;
 * - an item that cannot succeed (mapping error, version conflict) is never retried and is returned
 *   as a DocumentFailure, so the indexer writes it to its rejects file. Nothing is dropped silently.
 *
 * Versions: each write carries `version: change_seq, version_type: external_gte`. change_seq only
 * grows, so a stale write (a batch of an older load that commits late) is refused with 409 instead
 * of overwriting newer data; `_gte` lets a rewrite at the same change_seq through (a group update
 * that does not touch the public content keeps its change_seq).
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Client, estypes } from '@elastic/elasticsearch';
import type { StoredListing } from '../../core/model/stored.js';
import { StoreUnavailableError } from '../../core/ports/store-unavailable.js';
import { toOlderSource, toSource } from './document.js';
import { BACKEND, isTransient, isUnavailable, statusOf } from './errors.js';
import { commonLayout, readModelLayoutOf, type ReadModelLayout } from './read-model.js';

export interface DocumentFailure {
  id: string;
  listing: StoredListing;
  /** HTTP status of the item: 400 mapping error, 409 stale version, 429 still overloaded after every attempt... */
  status: number;
  /** Elasticsearch error type, e.g. `mapper_parsing_exception`, `version_conflict_engine_exception`. */
  type: string;
  reason: string;
}

export interface BulkWriteReport {
  written: number;
  failures: DocumentFailure[];
  /** Items sent again after a 429/5xx. */
  retried: number;
  attempts: number;
}

export interface BulkWriterOptions {
  /** Alias (with a write index) or concrete index. */
  index: string;
  /**
   * `index` must be an alias (default): a write to a missing alias is refused instead of creating a
   * concrete index of that name with dynamic mappings, which would then stand in the alias's way.
   * Off only for writes to a concrete index (a reindex filling the next generation).
   */
  requireAlias?: boolean;
  /** Size of one bulk request body; the reference suggests requests of a few MB. */
  flushBytes?: number;
  concurrency?: number;
  /** Attempts in all, the first one included. */
  maxAttempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

/** Documents serialised between two turns of the event loop (requestBodies). */
const DOCUMENTS_PER_RUN = 100;

const DEFAULTS = { flushBytes: 5 * 1024 * 1024, concurrency: 2, maxAttempts: 6, baseDelayMs: 500, maxDelayMs: 30_000, requireAlias: true };

export class BulkWriter {
  private readonly settings: Required<Omit<BulkWriterOptions, 'sleep' | 'random'>>;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly random: () => number;
  /** What the target's mapping holds of the read model (read once; an older index refuses the fields it lacks). */
  private readModel: ReadModelLayout | null = null;

  constructor(
    private readonly client: Client,
    options: BulkWriterOptions,
  ) {
    this.settings = { ...DEFAULTS, ...stripUndefined(options) } as Required<Omit<BulkWriterOptions, 'sleep' | 'random'>>;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.random = options.random ?? Math.random;
  }

  async write(listings: readonly StoredListing[]): Promise<BulkWriteReport> {
    // One operation per id: two writes of one id in different requests could land in either order.
    const byId = new Map(listings.map((listing) => [listing.id, listing]));
    const report: BulkWriteReport = { written: 0, failures: [], retried: 0, attempts: 0 };
    let pending = [...byId.values()];
    const readModel = await this.targetLayout();
    while (pending.length > 0) {
      report.attempts++;
      const attempt = await this.send(pending, readModel);
      report.failures.push(...attempt.refused);
      const refusedIds = new Set(attempt.refused.map((f) => f.id));
      let next: StoredListing[];
      if (attempt.requestError === null) {
        report.written += attempt.written;
        next = attempt.overloaded;
      } else {
        next = pending.filter((listing) => !refusedIds.has(listing.id));
      }
      if (next.length === 0) break;
      if (report.attempts >= this.settings.maxAttempts) {
        if (attempt.requestError !== null) throw new StoreUnavailableError(BACKEND, attempt.requestError);
        report.failures.push(
          ...next.map((listing) => ({
            id: listing.id,
            listing,
            status: 429,
            type: 'es_rejected_execution_exception',
            reason: `still refused by an overloaded cluster after ${report.attempts} attempts`,
          })),
        );
        break;
      }
      report.retried += next.length;
      await this.sleep(this.backoff(report.attempts));
      pending = next;
    }
    return report;
  }

  /** Delay before attempt n+1: exponential, capped, with jitter so writers do not retry in step. */
  backoff(attempt: number): number {
    const ceiling = Math.min(this.settings.maxDelayMs, this.settings.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(ceiling / 2 + this.random() * (ceiling / 2));
  }

  /**
   * Documents carry the read model (read-model.ts) when the target index's mapping has its fields:
   * an index made from an older mapping file is `dynamic: strict` and would refuse them; its readers
   * present from `_source` until `reindex` builds the current layout.
   */
  private async targetLayout(): Promise<ReadModelLayout> {
    if (this.readModel !== null) return this.readModel;
    try {
      const mappings = await this.client.indices.getMapping({ index: this.settings.index });
      this.readModel = commonLayout(Object.values(mappings).map((index) => readModelLayoutOf(index.mappings)));
      return this.readModel;
    } catch (error) {
      // A missing target: the bulk request below reports it (require_alias) the way it always has.
      if (statusOf(error) === 404) return 'none';
      if (isUnavailable(error)) throw new StoreUnavailableError(BACKEND, error);
      throw error;
    }
  }

  /**
   * One attempt: every pending listing sent once, in requests of about `flushBytes`, `concurrency`
   * of them in flight. Each item's status is read by its position in its request.
   */
  private async send(pending: StoredListing[], readModel: ReadModelLayout) {
    const refused: DocumentFailure[] = [];
    const overloaded: StoredListing[] = [];
    let written = 0;
    let requestError: unknown = null;
    const sendOne = async (request: BulkRequestBody) => {
      try {
        const response = await this.client.bulk({ body: request.body, filter_path: BULK_RESPONSE_FILTER } as unknown as estypes.BulkRequest, { maxRetries: 0 });
        // Without an item in error the statuses need not be read (the filter leaves them out).
        if (!response.errors) {
          written += request.listings.length;
          return;
        }
        response.items.forEach((item, i) => {
          const result = item.index!;
          const listing = request.listings[i];
          if (result.status < 300) written++;
          else if (result.status === 429 || result.status >= 500) overloaded.push(listing);
          else
            refused.push({
              id: listing.id,
              listing,
              status: result.status,
              type: result.error?.type ?? 'unknown',
              reason: result.error?.reason ?? `status ${result.status}`,
            });
        });
      } catch (error) {
        requestError ??= error;
      }
    };
    const inFlight = new Set<Promise<void>>();
    // At least `concurrency` requests a batch: one bulk request is indexed by one write thread of the
    // node, so a batch sent whole would keep the node's other cores idle.
    const cut = { flushBytes: this.settings.flushBytes, listings: Math.ceil(pending.length / this.settings.concurrency) };
    for await (const request of requestBodies(pending, (listing) => this.operationLines(listing, readModel), cut)) {
      if (requestError !== null) break;
      const sending: Promise<void> = sendOne(request).finally(() => inFlight.delete(sending));
      inFlight.add(sending);
      if (inFlight.size >= this.settings.concurrency) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    if (requestError === null) return { written, refused, overloaded, requestError: null };
    // The whole attempt is sent again (less what was refused for good): what was written is counted then.
    if (isTransient(requestError)) return { written: 0, refused, overloaded, requestError };
    if (isUnavailable(requestError)) throw new StoreUnavailableError(BACKEND, requestError);
    throw requestError;
  }

  /** A listing's two NDJSON lines: the index action (versioned) and its document. */
  private operationLines(listing: StoredListing, readModel: ReadModelLayout): string {
    const action = {
      index: {
        _index: this.settings.index,
        _id: listing.id,
        version: listing.change_seq,
        version_type: 'external_gte',
        ...(this.settings.requireAlias ? { require_alias: true } : {}),
      },
    };
    const document = readModel === 'none' ? toOlderSource(listing) : toSource(listing, readModel);
    return `${JSON.stringify(action)}\n${JSON.stringify(document)}\n`;
  }
}

/** A bulk request: its NDJSON body and the listings of its operations, in order. */
interface BulkRequestBody {
  body: string;
  listings: StoredListing[];
}

/** What a bulk answer is read for: the items' statuses and errors only when one failed. */
const BULK_RESPONSE_FILTER = ['errors', 'items.*.status', 'items.*.error.type', 'items.*.error.reason'];

/**
 * The bulk requests of `listings`, each cut once it reaches about `flushBytes` or holds `listings`. Each body is joined in one
 * go into one flat string: the client's own bulk helper grows it a line at a time, a rope of
 * thousands of strings that the client's byte count then flattens, 30 to 50 ms a 5 MB request on
 * this project's machines. Each listing is presented into its read-model texts on the way (toSource);
 * a thousand of them kept the event loop, and so the writer lock's renewals, waiting for most of a
 * second on a busy machine, so the loop runs between runs of them.
 */
async function* requestBodies(
  listings: readonly StoredListing[],
  linesOf: (listing: StoredListing) => string,
  cut: { flushBytes: number; listings: number },
): AsyncGenerator<BulkRequestBody> {
  let lines: string[] = [];
  let batch: StoredListing[] = [];
  let bytes = 0;
  for (let i = 0; i < listings.length; i++) {
    if (i > 0 && i % DOCUMENTS_PER_RUN === 0) await yieldToEventLoop();
    const text = linesOf(listings[i]);
    lines.push(text);
    batch.push(listings[i]);
    // Characters, not bytes: counting a line's UTF-8 bytes copies it first (a rope of strings), and
    // French text is a few per cent longer in UTF-8 than in characters.
    bytes += text.length;
    if (bytes >= cut.flushBytes || batch.length >= cut.listings) {
      yield { body: lines.join(''), listings: batch };
      lines = [];
      batch = [];
      bytes = 0;
    }
  }
  if (batch.length > 0) yield { body: lines.join(''), listings: batch };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
