/**
 * At least once, in order per alert, and one alert's receiver never holding back another's
 * (docs/api.md "Alerts"): a receiver down for a while, a slow receiver, a receiver that never
 * recovers, and a notifier process killed in the middle of a delivery, on both access backends.
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import type { TestApp } from '../support/app.js';
import { describeAccessBackends, send, startAlertApp } from '../support/alerts.js';
import type { Notifier } from '../../src/notifier/notifier.js';
import { NO_RATE_WINDOWS, offersWith } from '../api/access/support/quota-app.js';
import { createAlert, freshRecord, listingsOf, load, startNotifier, startReceiver, waitFor, type ReceivedCall, type Receiver } from './support.js';

/** The distinct events a receiver accepted, in the order it first accepted them. */
const uniqueAccepted = (receiver: Receiver): ReceivedCall[] => {
  const seen = new Set<string>();
  return receiver.accepted.filter((call) => !seen.has(call.event.id) && seen.add(call.event.id));
};

// rawRecord places i % 4 === 1 in Lyon.
const LYON = [1, 5, 9, 13];

describeAccessBackends('notifier reliability', function (access) {
  this.timeout(60_000);
  let app: TestApp & { env: Record<string, string> };
  let key: string;
  const receivers: Receiver[] = [];
  let notifier: Notifier | null = null;

  beforeEach(async () => {
    app = await startAlertApp(access);
    app.clock.now = Date.now();
    key = await app.newKey('sur_mesure');
  });
  afterEach(async () => {
    // Receivers first: a delivery waiting on one is cut short, so the notifier stops at once.
    await Promise.all(receivers.splice(0).map((receiver) => receiver.close()));
    await notifier?.stop();
    notifier = null;
    await app.close();
  });

  async function receiver(answer?: Parameters<typeof startReceiver>[0]): Promise<Receiver> {
    const started = await startReceiver(answer);
    receivers.push(started);
    return started;
  }

  it('a receiver down for a while receives everything once it is back, in order', async () => {
    const downUntil = Date.now() + 1_500;
    const flaky = await receiver(() => (Date.now() < downUntil ? 503 : 200));
    const alert = await createAlert(app, key, { url: flaky.url, filtres: { ville: 'Lyon' } });
    notifier = await startNotifier(app);
    await load(
      app,
      LYON.slice(0, 2).map((i) => freshRecord(i)),
    );
    await load(
      app,
      LYON.slice(2).map((i) => freshRecord(i)),
    );
    await waitFor('the four events', () => uniqueAccepted(flaky).length === 4);
    expect(listingsOf(uniqueAccepted(flaky))).to.deep.equal(LYON.map((i) => `leboncoin:R${i}`));
    // Nothing was accepted before the receiver came back, and nothing out of order after.
    expect(flaky.calls.filter((call) => call.at < downUntil).every((call) => call.event.annonce.reference === 'R1')).to.equal(true);
    expect(flaky.accepted).to.have.length(4);
    const shown = await send(app, 'GET', `/alertes/${alert.id}`, key);
    expect(shown.body).to.deep.include({ statut: 'active', en_echec_depuis: null, livraisons_en_attente: 0 });
    const log = await send(app, 'GET', `/alertes/${alert.id}/livraisons`, key);
    const first = log.body.items.at(-1);
    expect(first).to.deep.include({ resultat: 'livree', statut_http: 200 });
    expect(first.tentatives).to.be.above(1);
  });

  it('a slow receiver (5 s an answer) does not delay another alert', async () => {
    const slow = await receiver(async () => {
      await new Promise((resolve) => setTimeout(resolve, 5_000));
      return 204;
    });
    const fast = await receiver();
    await createAlert(app, key, { url: slow.url, filtres: { ville: 'Lyon' } });
    await createAlert(app, key, { url: fast.url, filtres: { ville: 'Lyon' } });
    notifier = await startNotifier(app);
    const loadedAt = Date.now();
    await load(
      app,
      LYON.slice(0, 3).map((i) => freshRecord(i)),
    );
    await waitFor('the fast receiver', () => fast.accepted.length === 3, 4_000);
    expect(Date.now() - loadedAt).to.be.below(4_000);
    expect(slow.calls).to.have.length(1);
    expect(slow.accepted).to.have.length(0);
  });

  it('gives a delivery up after the retry horizon and pauses an alert failing too long', async () => {
    const broken = await receiver(() => 500);
    const alert = await createAlert(app, key, { url: broken.url, filtres: { ville: 'Lyon' } });
    notifier = await startNotifier(app, { baseDelayMs: 20, maxDelayMs: 50, giveUpAfterMs: 300, pauseAfterMs: 500 });
    await load(
      app,
      LYON.slice(0, 2).map((i) => freshRecord(i)),
    );
    await waitFor('the pause', async () => (await send(app, 'GET', `/alertes/${alert.id}`, key)).body.statut === 'en_pause');
    const shown = (await send(app, 'GET', `/alertes/${alert.id}`, key)).body;
    expect(shown.en_pause_depuis).to.be.a('string');
    expect(Date.parse(shown.en_pause_depuis) - Date.parse(shown.en_echec_depuis)).to.be.at.least(500);
    const log = (await send(app, 'GET', `/alertes/${alert.id}/livraisons`, key)).body.items;
    expect(log.length).to.be.at.least(1);
    for (const delivery of log) {
      expect(delivery).to.deep.include({ resultat: 'echec', statut_http: 500 });
      expect(delivery.tentatives).to.be.above(1);
    }
    // Paused: no more calls, and new listings are not queued for it.
    const calls = broken.calls.length;
    await load(app, [freshRecord(LYON[2])]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(broken.calls.length).to.equal(calls);
    expect((await send(app, 'GET', `/alertes/${alert.id}`, key)).body.livraisons_en_attente).to.equal(shown.livraisons_en_attente);
  });

  it('past the listing quota a delivery waits, without counting against the alert', async () => {
    await app.close();
    app = await startAlertApp(access, { deps: { offers: offersWith({ ville: { itemsPerDay: 1 } }, NO_RATE_WINDOWS) } });
    app.clock.now = Date.now();
    const small = await app.newKey('ville');
    const target = await receiver();
    const alert = await createAlert(app, small, { url: target.url, filtres: { ville: 'Lyon' } });
    notifier = await startNotifier(app);
    await load(
      app,
      LYON.slice(0, 2).map((i) => freshRecord(i)),
    );
    await waitFor('the first event', () => target.accepted.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(target.calls).to.have.length(1);
    const shown = await send(app, 'GET', `/alertes/${alert.id}`, small);
    expect(shown.body).to.deep.include({ statut: 'active', en_echec_depuis: null, livraisons_en_attente: 1 });
    expect(shown.headers.get('x-quota-items-used')).to.equal('1');
  });

  it('a deleted alert receives nothing more, and keeps nothing queued', async () => {
    const target = await receiver();
    const alert = await createAlert(app, key, { url: target.url, filtres: { ville: 'Lyon' } });
    notifier = await startNotifier(app);
    await load(app, [freshRecord(LYON[0])]);
    await waitFor('the first event', () => target.accepted.length === 1);
    expect((await send(app, 'DELETE', `/alertes/${alert.id}`, key)).status).to.equal(204);
    await load(app, [freshRecord(LYON[1])]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(target.calls).to.have.length(1);
    expect(await app.service.deps.alerts.pendingCount(alert.id)).to.equal(0);
  });

  it('a notifier process killed in the middle of a delivery loses nothing once restarted', async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const target = await receiver(async (_call, n) => {
      // The first call is never answered while the notifier that sent it lives.
      if (n === 1) await held;
      return 204;
    });
    await createAlert(app, key, { url: target.url, filtres: { ville: 'Lyon' } });
    await load(
      app,
      LYON.slice(0, 3).map((i) => freshRecord(i)),
    );
    const first = startNotifierProcess(app);
    const firstExit = new Promise((resolve) => first.once('exit', resolve));
    try {
      await waitFor('the first call', () => target.calls.length === 1);
    } finally {
      first.kill('SIGKILL');
      await firstExit;
      release();
    }
    const second = startNotifierProcess(app);
    const secondExit = new Promise((resolve) => second.once('exit', resolve));
    try {
      await waitFor('every event', () => uniqueAccepted(target).length === 3);
      expect(listingsOf(uniqueAccepted(target))).to.deep.equal(LYON.slice(0, 3).map((i) => `leboncoin:R${i}`));
      // The event cut short was sent again, with the same id.
      expect(target.calls.filter((call) => call.event.id === target.calls[0].event.id).length).to.be.at.least(2);
    } finally {
      second.kill('SIGTERM');
      await secondExit;
    }
  });
});

/** `npm run notifier` on the app's data directory and access backend. */
function startNotifierProcess(app: TestApp & { env: Record<string, string> }): ChildProcess {
  // The app's access backend, not the one the test run was given (REDIS_URL may be set for the Redis cases).
  const env = {
    ...process.env,
    REDIS_URL: '',
    ...app.env,
    DATA_DIR: app.dataDir,
    ES_URL: '',
    FEED_SETTLE_SECONDS: '0',
    NOTIFIER_POLL_MS: '100',
    LOG_LEVEL: 'silent',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/notifier/main.ts'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  return child;
}
