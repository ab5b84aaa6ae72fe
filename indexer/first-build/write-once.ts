/**
 * The end of a first build kept aside (aside-index.ts): every listing of the file written to the
 * target once, a page at a time. Pipelined: the next page is read and parsed while the previous
 * page's write is in flight, and only then waits for it (BatchPipeline), so the target is kept busy
 * while memory holds two pages whatever the catalogue's size.
 */
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { StoredListing } from '../../src/core/model/stored.js';
import type { WriteFailure } from '../../src/core/ports/listing-index.js';
import { BatchPipeline } from '../batch-pipeline.js';
import type { AsideFile } from './aside-file.js';

/** One page written: the listings the target accepted and refused. */
export interface WriteOnceProgress {
  written: number;
  refused: number;
}

export async function writeOnce(
  file: Pick<AsideFile, 'page'>,
  writePage: (listings: StoredListing[]) => Promise<WriteFailure[]>,
  options: { pageSize: number; onPage: (progress: WriteOnceProgress) => void },
): Promise<WriteFailure[]> {
  const refused: WriteFailure[] = [];
  const writing = new BatchPipeline<StoredListing>(async (page) => {
    const failures = await writePage(page);
    refused.push(...failures);
    options.onPage({ written: page.length - failures.length, refused: failures.length });
  });
  try {
    for (let after = 0; ; ) {
      // A page is read and parsed in one go: the event loop (the lock's renewals) runs between pages.
      await yieldToEventLoop();
      const { listings, last } = file.page(after, options.pageSize);
      if (listings.length === 0) break;
      await writing.next(listings);
      after = last;
    }
    await writing.drain();
  } finally {
    // A failure leaves a page perhaps in flight: nothing may write after the load has returned.
    await writing.drain().catch(() => undefined);
  }
  return refused;
}
