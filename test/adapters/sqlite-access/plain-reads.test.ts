/**
 * The quota headers of a map or /sources answer (readUsage) are a plain read of the access file when
 * nothing must roll or expire: they take no write lock, so they answer while another connection
 * holds it, and they see what that connection committed.
 */
import { expect } from 'chai';
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SqliteAccessStore } from '../../../src/adapters/sqlite-access/access-store.js';
import type { UsageScope } from '../../../src/core/ports/access-store.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 10, 12);
const scopeAt = (now: number): UsageScope => ({
  accountId: 'plain',
  now,
  dayMs: DAY,
  month: { kind: 'rolling', ms: 30 * DAY },
  requestDay: { start: Math.floor(now / DAY) * DAY, end: Math.floor(now / DAY) * DAY + DAY },
});
const LIMITS = { day: 1000, month: 1000 };

describe('SQLite access file: usage read without the write lock', () => {
  let dir: string;
  let store: SqliteAccessStore;
  let other: Database.Database;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'plain-reads-'));
    const file = path.join(dir, 'access.sqlite');
    store = SqliteAccessStore.open(file);
    other = new Database(file);
    other.pragma('busy_timeout = 0');
  });
  afterEach(async () => {
    other.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers while another connection holds the write lock, with the counts committed before', async () => {
    await store.consumeListings(scopeAt(T0), ['s:a', 's:b'], LIMITS);
    await store.admit(scopeAt(T0), { requestLimit: 10, items: LIMITS, take: true });
    other.exec('BEGIN IMMEDIATE');
    try {
      expect(await store.readUsage(scopeAt(T0 + 1000))).to.deep.include({ requests: 1, day: 2, month: 2, dayOldest: T0, monthOldest: T0 });
    } finally {
      other.exec('ROLLBACK');
    }
  });

  it('still expires what left a window (through the transaction) before answering', async () => {
    await store.consumeListings(scopeAt(T0), ['s:a', 's:b'], LIMITS);
    const usage = await store.readUsage(scopeAt(T0 + DAY + 1));
    expect(usage).to.deep.include({ day: 0, month: 2, dayOldest: null, requests: 0 });
  });
});
