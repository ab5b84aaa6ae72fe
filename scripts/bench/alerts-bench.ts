/**
 * npm run bench -- --alerts 200 [--changes 10000]: alerts delivered end to end. The real service on
 * an empty SQLite store, N alerts created over HTTP (each on a city, a transaction and a price band:
 * 200 distinct searches, so with 200 alerts a change concerns one of them), one local receiver
 * answering 204, the notifier in this process, then the changes loaded by the indexer in one file. Prints the events delivered per second and the lag from
 * the end of the load to each delivery (a delivery before the end counts 0).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { loadConfig } from '../../src/config/config.js';
import { createService } from '../../src/service.js';
import { createKey } from '../../src/admin/commands.js';
import { Notifier } from '../../src/notifier/notifier.js';
import { runLoad } from '../../indexer/load.js';
import { loadSites } from '../../src/core/model/sites.js';
import { loadCommunes } from '../../src/core/refdata/communes.js';

const PLACES = [
  ['Paris', '75011'],
  ['Lyon', '69003'],
  ['Nantes', '44000'],
  ['Bordeaux', '33000'],
  ['Lille', '59000'],
  ['Rennes', '35000'],
  ['Toulouse', '31000'],
  ['Nice', '06000'],
  ['Dijon', '21000'],
  ['Brest', '29200'],
] as const;
const TRANSACTIONS = ['vente', 'location'] as const;
const SITES = ['seloger', 'leboncoin', 'bienici', 'pap'];

const BAND = 50_000;
const LOWEST_PRICE = 150_000;

/** City, transaction and price band of change `i`; a change concerns the alerts of the same three. */
const changeSearch = (i: number): string => `${i % PLACES.length}:${Math.floor(i / PLACES.length) % 2}:${Math.floor((i % 500) / 50)}`;
const alertSearch = (n: number): string => `${n % PLACES.length}:${Math.floor(n / PLACES.length) % 2}:${Math.floor(n / 20) % 10}`;

function rawChange(i: number, collectedAt: string): Record<string, unknown> {
  const [city, postalCode] = PLACES[i % PLACES.length];
  const source = SITES[i % SITES.length];
  return {
    source,
    reference: `B${i}`,
    url: `https://www.${source}.example/annonce/B${i}`,
    collected_at: collectedAt,
    title: `Appartement ${2 + (i % 4)} pièces`,
    description: `Appartement numéro ${i}, proche commerces.`,
    type: 'appartement',
    transaction: TRANSACTIONS[Math.floor(i / PLACES.length) % 2],
    price: `${LOWEST_PRICE / 1000 + (i % 500)} 000 €`,
    surface: `${30 + (i % 80)} m²`,
    city,
    postal_code: postalCode,
    images: [`https://img.example/${i}.jpg`],
    seller_type: 'agence',
    seller_name: 'Agence Bench',
  };
}

const percentile = (sorted: number[], p: number): number => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : 0);

export async function runAlertsBench(alertCount: number, changes: number): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-alerts-'));
  const config = loadConfig({ DATA_DIR: dataDir, FEED_SETTLE_SECONDS: '0', ALERT_PRIVATE_URLS: '1', LOG_LEVEL: 'silent', SAMPLE_COUNT: '0' });
  const logger = pino({ level: 'silent' });
  const service = await createService(config, { logger });
  const server = await service.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1`;
  const deliveredAt = new Map<string, number>();
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string };
      if (!deliveredAt.has(event.id)) deliveredAt.set(event.id, Date.now());
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  const { key } = await createKey(service.deps.access, service.deps.offers, { account: 'bench-alerts', offer: 'sur_mesure' });
  for (let n = 0; n < alertCount; n++) {
    const [city] = PLACES[n % PLACES.length];
    const band = Math.floor(n / 20) % 10;
    const filtres = {
      ville: city,
      transaction: TRANSACTIONS[Math.floor(n / PLACES.length) % 2],
      prix_min: LOWEST_PRICE + band * BAND,
      prix_max: LOWEST_PRICE + (band + 1) * BAND - 1,
    };
    const body = { url: `${hook}/${n}`, filtres };
    const created = await fetch(`${base}/alertes`, {
      method: 'POST',
      headers: { 'X-Api-Key': key, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (created.status !== 201) throw new Error(`alert ${n}: ${created.status} ${await created.text()}`);
  }
  const alertsPerSearch = new Map<string, number>();
  for (let n = 0; n < alertCount; n++) alertsPerSearch.set(alertSearch(n), (alertsPerSearch.get(alertSearch(n)) ?? 0) + 1);
  let expected = 0;
  for (let i = 0; i < changes; i++) expected += alertsPerSearch.get(changeSearch(i)) ?? 0;
  const notifier = new Notifier({
    listings: service.deps.listings,
    alerts: service.deps.alerts,
    access: service.deps.access,
    offers: service.deps.offers,
    logger,
    settleMs: 0,
    pollMs: 100,
    allowPrivateUrls: true,
  });
  await notifier.start();
  const collectedAt = new Date().toISOString();
  const file = path.join(dataDir, 'changes.ndjson');
  writeFileSync(file, `${Array.from({ length: changes }, (_, i) => JSON.stringify(rawChange(i, collectedAt))).join('\n')}\n`);
  const loadStart = Date.now();
  const cpuStart = process.cpuUsage();
  await runLoad({ files: [file], store: service.listingStore, sites: loadSites(), communes: loadCommunes(), now: Date.now });
  const loadEnd = Date.now();
  const deadline = loadEnd + 300_000;
  while (deliveredAt.size < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
  const cpu = process.cpuUsage(cpuStart);
  const lags = [...deliveredAt.values()].map((at) => Math.max(0, at - loadEnd)).sort((a, b) => a - b);
  const lastDelivery = Math.max(...deliveredAt.values());
  console.log(`alerts ${alertCount}, changes ${changes}: load ${((loadEnd - loadStart) / 1000).toFixed(1)} s`);
  console.log(
    `delivered ${deliveredAt.size} of ${expected} events in ${((lastDelivery - loadStart) / 1000).toFixed(1)} s from the load's start: ` +
      `${Math.round(deliveredAt.size / ((lastDelivery - loadStart) / 1000))} events/s`,
  );
  console.log(`lag after the load's end: p50 ${percentile(lags, 50)} ms, p95 ${percentile(lags, 95)} ms, max ${lags.at(-1) ?? 0} ms`);
  // On a shared machine the wall-clock figures move with the other work; the CPU spent does less.
  console.log(`CPU of this process from the load's start to the last delivery (load included): ${((cpu.user + cpu.system) / 1e6).toFixed(1)} s`);
  await notifier.stop();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await service.close();
  rmSync(dataDir, { recursive: true, force: true });
}
