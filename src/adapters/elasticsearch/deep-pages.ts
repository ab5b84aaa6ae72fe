/**
 * Deep pages in page mode, at most a few at a time. A page at `from` makes every shard collect and
 * sort `from + size` hits: page 1 000 of 100 is a hundred thousand per shard, thousands of times a
 * first page's work. Fifty clients asking for such pages would hold the node's search threads and
 * queue every other request behind them, so beyond DEEP_PAGE_FROM a page takes one of a few slots
 * of this process, and a page finding none free is refused at once (503 with Retry-After) instead
 * of waiting: the cursor, which costs the same on every page, is the way through a long result.
 */
import { StoreBusyError } from '../../core/ports/store-unavailable.js';
import { BACKEND } from './errors.js';

/** The first `from` counted as deep: Elasticsearch's own default `index.max_result_window`. */
export const DEEP_PAGE_FROM = 10_000;
/** Deep pages read at once by one API process. */
export const DEEP_PAGES_AT_ONCE = 2;
export const DEEP_PAGE_RETRY_SECONDS = 2;

export class DeepPageGate {
  private running = 0;

  constructor(private readonly atOnce: number = DEEP_PAGES_AT_ONCE) {}

  /** Runs `read` if it is shallow or a slot is free; refuses it synchronously otherwise. */
  async run<T>(from: number, read: () => Promise<T>): Promise<T> {
    if (from < DEEP_PAGE_FROM) return read();
    if (this.running >= this.atOnce) {
      throw new StoreBusyError(
        BACKEND,
        `Too many deep pages (from result ${DEEP_PAGE_FROM}) are being read; retry in ${DEEP_PAGE_RETRY_SECONDS} s, or walk the results with next_cursor, which costs the same on every page.`,
        DEEP_PAGE_RETRY_SECONDS,
      );
    }
    this.running++;
    try {
      return await read();
    } finally {
      this.running--;
    }
  }
}
