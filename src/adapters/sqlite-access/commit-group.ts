/**
 * Group commit for the embedded access file: the counting transactions of the requests that reach
 * it in the same turn of the event loop share one `BEGIN IMMEDIATE ... COMMIT`.
 *
 * Each piece of work still runs alone and in order, inside its own savepoint (a better-sqlite3
 * transaction function called inside a transaction opens a SAVEPOINT), so it sees everything the
 * earlier ones wrote and a piece that throws undoes only itself; its caller gets the error and the
 * others are committed. Nobody gets an answer before the commit that holds their work, so what a
 * response reports is on disk (as far as `synchronous = NORMAL` puts it there), and other processes
 * on the same file are serialised by SQLite's write lock exactly as before.
 *
 * Why: BEGIN and COMMIT (the WAL append and the wal-index update) were about half of an admission's
 * CPU in the access file (profiled: /ptz/zone, every /annonces request counts twice). Under load
 * several requests are parsed per turn of the loop and pay them once. The notifier's deliveries
 * (a quota count before the call, the queue and the log after it) join the same group: one
 * connection has one group (`CommitGroup.of`), so the work of every store on the file shares it.
 */
import type Database from 'better-sqlite3';

interface Pending {
  work: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

const GROUPS = new WeakMap<Database.Database, CommitGroup>();

export class CommitGroup {
  /** The connection's one group, shared by the stores that write the file through it. */
  static of(db: Database.Database): CommitGroup {
    let group = GROUPS.get(db);
    if (!group) {
      group = new CommitGroup(db);
      GROUPS.set(db, group);
    }
    return group;
  }

  private queue: Pending[] = [];
  private readonly begin: Database.Statement;
  private readonly commit: Database.Statement;
  private readonly rollback: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.begin = db.prepare('BEGIN IMMEDIATE');
    this.commit = db.prepare('COMMIT');
    this.rollback = db.prepare('ROLLBACK');
  }

  /** Runs `work` (which must open its own savepoint: a db.transaction function) in the next group. */
  run<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (this.queue.length === 1) setImmediate(() => this.flush());
    });
  }

  private flush(): void {
    const group = this.queue;
    this.queue = [];
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      this.begin.run();
      for (const pending of group) {
        try {
          outcomes.push({ ok: true, value: pending.work() });
        } catch (error) {
          outcomes.push({ ok: false, value: error });
        }
      }
      this.commit.run();
    } catch (error) {
      // BEGIN or COMMIT failed (e.g. the file stayed locked past busy_timeout): nothing of the group is kept.
      if (this.db.inTransaction) this.rollback.run();
      for (const pending of group) pending.reject(error);
      return;
    }
    group.forEach((pending, i) => (outcomes[i].ok ? pending.resolve(outcomes[i].value) : pending.reject(outcomes[i].value)));
  }
}
