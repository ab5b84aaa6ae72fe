/**
 * Batches written one after the other, each while the next one is read and normalised: a batch's
 * write waits on the store (a bulk request, block lookups), time in which this thread parses the
 * next records. A batch's merge starts only once the previous batch is written, so it reads the
 * store as that write left it, as when the batches ran strictly in turn.
 */
export class BatchPipeline<T> {
  private inFlight: Promise<void> | null = null;

  constructor(private readonly write: (batch: T[]) => Promise<void>) {}

  /** Waits for the batch in flight (its failure surfaces here), then starts writing `batch`. */
  async next(batch: T[]): Promise<void> {
    await this.drain();
    const writing = this.write(batch);
    // Awaited by the next call or by drain; until then a failure must not be reported as unhandled.
    writing.catch(() => {});
    this.inFlight = writing;
  }

  async drain(): Promise<void> {
    const writing = this.inFlight;
    this.inFlight = null;
    if (writing) await writing;
  }
}
