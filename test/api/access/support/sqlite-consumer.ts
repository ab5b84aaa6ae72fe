/** Worker thread of the SQLite concurrency test: its own connection, many deliveries at once. */
import { parentPort, workerData } from 'node:worker_threads';
import { SqliteAccessStore } from '../../../../src/adapters/sqlite-access/access-store.js';
import { ids, scopeAt } from '../../../conformance/access/scopes.js';

const { file, account, worker, calls, page, monthLimit, now } = workerData as {
  file: string;
  account: string;
  worker: number;
  calls: number;
  page: number;
  monthLimit: number;
  now: number;
};
const store = SqliteAccessStore.open(file);
let added = 0;
let served = 0;
for (let i = 0; i < calls; i++) {
  const result = await store.consumeListings(scopeAt(account, now), [...ids(`w${worker}-${i}`, page), 'shared'], { day: 1_000_000, month: monthLimit });
  added += result.added;
  if (!result.refused) served += 1;
}
await store.close();
parentPort!.postMessage({ added, served });
