/**
 * Prepared statements by SQL text. Preparing costs more than running a small lookup, and the API
 * runs the same few statements on every request, so each is prepared once per connection.
 */
import type Database from 'better-sqlite3';

export class StatementCache {
  private readonly statements = new Map<string, Database.Statement>();

  /** `limit` bounds the cache when the SQL text varies (built queries); fixed statements never reach it. */
  constructor(
    private readonly db: Database.Database,
    private readonly limit = 500,
  ) {}

  get(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      if (this.statements.size >= this.limit) this.statements.clear();
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
