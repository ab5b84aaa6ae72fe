/**
 * What the notifier's tests share: real HTTP receivers (node:http) that record every call and answer
 * as the test says, the notifier on a test app's stores, records loaded through the real indexer, and
 * the signature check a receiver would write.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHmac, timingSafeEqual } from 'node:crypto';
import pino from 'pino';
import type { TestApp } from '../support/app.js';
import { rawRecord, writeNdjson } from '../support/raw.js';
import { runLoad } from '../../indexer/load.js';
import { loadSites } from '../../src/core/model/sites.js';
import { loadCommunes } from '../../src/core/refdata/communes.js';
import { Notifier } from '../../src/notifier/notifier.js';
import type { RetryPolicy } from '../../src/notifier/retry-policy.js';
import { send } from '../support/alerts.js';

export interface ReceivedCall {
  body: string;
  event: any;
  headers: IncomingHttpHeaders;
  at: number;
}

export interface Receiver {
  url: string;
  /** Every call, in arrival order. */
  calls: ReceivedCall[];
  /** Calls answered 2xx, in order: what the receiver accepted. */
  accepted: ReceivedCall[];
  close(): Promise<void>;
}

/** `answer(call, n)` returns the status (after any wait it wants); 204 by default. */
export async function startReceiver(answer: (call: ReceivedCall, n: number) => number | Promise<number> = () => 204): Promise<Receiver> {
  const calls: ReceivedCall[] = [];
  const accepted: ReceivedCall[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const call = { body, event: JSON.parse(body), headers: request.headers, at: Date.now() };
      calls.push(call);
      const status = await answer(call, calls.length);
      if (status >= 200 && status < 300) accepted.push(call);
      if (!response.destroyed) response.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    calls,
    accepted,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The check of docs/api.md "Verifying a signature": true when the header signs this body with this secret. */
export function verifySignature(header: string, body: string, secret: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((part) => part.split('=', 2) as [string, string]));
  const expected = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest();
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export const FAST_RETRIES: RetryPolicy = { baseDelayMs: 50, maxDelayMs: 200, giveUpAfterMs: 60_000, pauseAfterMs: 120_000 };

export async function startNotifier(app: TestApp, policy: RetryPolicy = FAST_RETRIES): Promise<Notifier> {
  const { deps } = app.service;
  const notifier = new Notifier({
    listings: deps.listings,
    alerts: deps.alerts,
    access: deps.access,
    offers: deps.offers,
    logger: pino({ level: 'silent' }),
    settleMs: 0,
    pollMs: 50,
    allowPrivateUrls: true,
    policy,
  });
  await notifier.start();
  return notifier;
}

const sites = loadSites();
const communes = loadCommunes();

/** Raw records collected now (they are new listings for an alert created before). */
export function freshRecord(i: number, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return rawRecord(i, { collected_at: new Date().toISOString(), ...overrides });
}

/** Loads records through the indexer, as a collector's file would be. */
export async function load(app: TestApp, records: unknown[]): Promise<void> {
  await runLoad({ files: [writeNdjson(records)], store: app.service.listingStore, sites, communes, now: Date.now });
}

export async function createAlert(app: TestApp, key: string, body: Record<string, unknown>): Promise<{ id: string; secret: string }> {
  const created = await send(app, 'POST', '/alertes', key, body);
  if (created.status !== 201) throw new Error(`alert not created: ${created.status} ${JSON.stringify(created.body)}`);
  return created.body;
}

export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** `source:reference` of each event's listing. */
export const listingsOf = (calls: ReceivedCall[]): string[] => calls.map((call) => `${call.event.annonce.source}:${call.event.annonce.reference}`);
