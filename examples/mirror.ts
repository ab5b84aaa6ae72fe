/**
 * A local copy of the catalogue, kept from the change feed and the withdrawn flow (docs/api.md,
 * "Keeping a mirror"). The copy is a SQLite file: one row per site listing (its Annonce as JSON)
 * and the two saved cursors, written in the same transaction as the batch they follow, so a mirror
 * stopped anywhere resumes where it was.
 *
 *   npx tsx examples/mirror.ts --base http://localhost:8080/api/v1 --key "$K" --file mirror.sqlite [--once]
 *
 * Each round reads the feed until it is up to date (upserting what it delivers), then the withdrawn
 * flow (deleting what it delivers), then waits `--poll-seconds` (default 60). `--once` stops after one
 * round and prints what it did as JSON. 429 and 503 are waited out as their Retry-After says, a
 * quota reached until its resumption date; a saved cursor the API refuses (its secret rotated, its
 * engine changed) starts that flow again from the beginning: a re-delivery costs no quota.
 */
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { AnnoncesClient, ApiError, QuotaError, type Annonce, type WithdrawnAnnonce } from '../client/index.js';

type Flow = 'feed' | 'withdrawn';

export interface RoundReport {
  upserted: number;
  deleted: number;
  batches: number;
  /** Waits the API asked for: 429 and 503 (Retry-After), 402 (until the resumption date). */
  waits: number;
  /** Flows started again because their saved cursor was refused. */
  restarted: Flow[];
  listings: number;
}

export class Mirror {
  private readonly db: Database.Database;
  private waits = 0;

  constructor(
    file: string,
    private readonly api: (sleep: (ms: number) => Promise<void>) => AnnoncesClient,
    private readonly pageSize = 100,
  ) {
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    this.db.exec('CREATE TABLE IF NOT EXISTS listings (id TEXT PRIMARY KEY, annonce TEXT NOT NULL)');
    this.db.exec('CREATE TABLE IF NOT EXISTS cursors (flow TEXT PRIMARY KEY, cursor TEXT NOT NULL)');
  }

  /** The feed until up to date, then the withdrawn flow until up to date. */
  async round(): Promise<RoundReport> {
    this.waits = 0;
    const report: RoundReport = { upserted: 0, deleted: 0, batches: 0, waits: 0, restarted: [], listings: 0 };
    for (const flow of ['feed', 'withdrawn'] as const) await this.follow(flow, report);
    report.waits = this.waits;
    report.listings = (this.db.prepare('SELECT count(*) AS n FROM listings').get() as { n: number }).n;
    return report;
  }

  close(): void {
    this.db.close();
  }

  private async follow(flow: Flow, report: RoundReport): Promise<void> {
    const client = this.api(async (ms) => {
      this.waits++;
      await new Promise((resolve) => setTimeout(resolve, ms));
    });
    for (;;) {
      const cursor = this.savedCursor(flow);
      let batch: { items: (Annonce | WithdrawnAnnonce)[]; has_more: boolean; next_cursor: string | null };
      try {
        const query = { page_size: this.pageSize, cursor };
        batch = (flow === 'feed' ? await client.feed(query) : await client.withdrawn(query)).data;
      } catch (error) {
        if (cursor !== undefined && isRefusedCursor(error)) {
          this.db.prepare('DELETE FROM cursors WHERE flow = ?').run(flow);
          report.restarted.push(flow);
          continue;
        }
        if (error instanceof QuotaError && error.resumesAt) {
          this.waits++;
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, error.resumesAt!.getTime() - Date.now()) + 1000));
          continue;
        }
        throw error;
      }
      this.apply(flow, batch.items, batch.next_cursor, report);
      if (!batch.has_more) return;
    }
  }

  /** The batch and the cursor after it in one transaction: a crash never applies one without the other. */
  private apply(flow: Flow, items: (Annonce | WithdrawnAnnonce)[], nextCursor: string | null, report: RoundReport): void {
    const upsert = this.db.prepare('INSERT INTO listings (id, annonce) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET annonce = excluded.annonce');
    const remove = this.db.prepare('DELETE FROM listings WHERE id = ?');
    this.db.transaction(() => {
      for (const item of items) {
        const id = `${item.source}:${item.reference}`;
        if (flow === 'feed') report.upserted += upsert.run(id, JSON.stringify(item)).changes;
        else report.deleted += remove.run(id).changes;
      }
      if (nextCursor !== null) this.db.prepare('INSERT OR REPLACE INTO cursors (flow, cursor) VALUES (?, ?)').run(flow, nextCursor);
      report.batches++;
    })();
  }

  private savedCursor(flow: Flow): string | undefined {
    return (this.db.prepare('SELECT cursor FROM cursors WHERE flow = ?').get(flow) as { cursor: string } | undefined)?.cursor;
  }
}

/** A 400 that names `cursor`: the API no longer reads the saved position. */
function isRefusedCursor(error: unknown): boolean {
  return error instanceof ApiError && error.status === 400 && (error.body.details ?? []).some((issue) => issue.field === 'cursor');
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      base: { type: 'string' },
      key: { type: 'string' },
      file: { type: 'string', default: 'mirror.sqlite' },
      once: { type: 'boolean', default: false },
      'page-size': { type: 'string', default: '100' },
      'poll-seconds': { type: 'string', default: '60' },
    },
  });
  if (!values.base || !values.key) throw new Error('usage: examples/mirror.ts --base <url ending in /api/v1> --key <API key> [--file mirror.sqlite] [--once]');
  const { base, key } = values;
  // A mirror runs forever: it waits as long and as often as the API asks.
  const api = (sleep: (ms: number) => Promise<void>) =>
    new AnnoncesClient({ baseUrl: base, apiKey: key, sleep, maxRetries: Number.POSITIVE_INFINITY, maxWaitSeconds: Number.POSITIVE_INFINITY });
  const mirror = new Mirror(values.file, api, Number(values['page-size']));
  try {
    for (;;) {
      const report = await mirror.round();
      console.log(JSON.stringify(report));
      if (values.once) return;
      await new Promise((resolve) => setTimeout(resolve, Number(values['poll-seconds']) * 1000));
    }
  } finally {
    mirror.close();
  }
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
