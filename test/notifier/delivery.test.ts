/**
 * Alerts delivered by the notifier to real HTTP receivers, with records loaded through the indexer:
 * what is sent (signed, the listing as /annonces presents it, the previous price of a drop, the
 * withdrawal), to whom (filters, sites, access start date), at what cost (the listing quota), on
 * both listing engines and both access backends.
 */
import { expect } from 'chai';
import type { TestApp } from '../support/app.js';
import { describeEngines } from '../support/engines.js';
import { describeAccessBackends, send, startAlertApp } from '../support/alerts.js';
import type { Notifier } from '../../src/notifier/notifier.js';
import { createAlert, freshRecord, listingsOf, load, startNotifier, startReceiver, verifySignature, waitFor, type Receiver } from './support.js';

describeEngines('notifier delivery', function (engine) {
  describeAccessBackends('', function (access) {
    this.timeout(60_000);
    let app: TestApp;
    let key: string;
    let receiver: Receiver;
    let notifier: Notifier | null = null;

    beforeEach(async () => {
      app = await startAlertApp(access, { engine });
      // The API's clock stands at the real time: alerts are created now, before the loads.
      app.clock.now = Date.now();
      key = await app.newKey('sur_mesure');
      receiver = await startReceiver();
    });
    afterEach(async () => {
      await notifier?.stop();
      notifier = null;
      await receiver.close();
      await app.close();
    });

    it('sends a new matching listing, signed and verifiable, as /annonces presents it, and counts it in the quota', async () => {
      const alert = await createAlert(app, key, { url: receiver.url, filtres: { ville: 'Lyon' } });
      notifier = await startNotifier(app);
      // rawRecord places i % 4 === 1 in Lyon.
      await load(
        app,
        [0, 1, 2, 3, 4, 5].map((i) => freshRecord(i)),
      );
      await waitFor('two deliveries', () => receiver.accepted.length === 2);
      expect(listingsOf(receiver.accepted)).to.deep.equal(['leboncoin:R1', 'leboncoin:R5']);
      const search = await app.get('/annonces?ville=Lyon&dedup=0&sort=price_asc', key);
      for (const call of receiver.accepted) {
        const signature = String(call.headers['x-annonces-signature']);
        expect(verifySignature(signature, call.body, alert.secret), signature).to.equal(true);
        expect(verifySignature(signature, call.body, 'another secret')).to.equal(false);
        expect(Math.abs(Number(/t=(\d+)/.exec(signature)![1]) - Date.now() / 1000)).to.be.below(30);
        expect(call.headers['content-type']).to.equal('application/json');
        expect(call.event).to.have.keys(['id', 'type', 'alerte', 'occurred_at', 'annonce']);
        expect(call.event).to.deep.include({ type: 'nouvelle', alerte: alert.id });
        expect(call.event.id).to.match(/^evt_[0-9a-f]{32}$/);
        const same = search.body.items.find((a: any) => a.reference === call.event.annonce.reference);
        expect(call.event.annonce).to.deep.equal(same);
      }
      const log = await send(app, 'GET', `/alertes/${alert.id}/livraisons`, key);
      expect(log.body.items.map((d: any) => [d.evenement_id, d.statut_http, d.tentatives, d.resultat])).to.deep.equal(
        receiver.accepted.map((call) => [call.event.id, 204, 1, 'livree']).reverse(),
      );
      // Two listings delivered, counted once each as /annonces would (the search above delivered the same two).
      const listing = await send(app, 'GET', '/alertes', key);
      expect(listing.headers.get('x-quota-items-used')).to.equal('2');
    });

    it('sends a price drop with the previous price, nothing for a rise, then the withdrawal', async () => {
      const alert = await createAlert(app, key, { url: receiver.url, filtres: { cp: '69003' } });
      notifier = await startNotifier(app);
      // Collection passes an hour apart (the price history records one reading per hour), the last one now.
      const at = (hours: number) => new Date(Date.now() - (3 - hours) * 3_600_000).toISOString();
      await load(app, [freshRecord(1, { price: '300 000 €', collected_at: at(0) })]);
      await waitFor('the new listing', () => receiver.accepted.length === 1);
      await load(app, [freshRecord(1, { price: '250 000 €', collected_at: at(1) })]);
      await waitFor('the price drop', () => receiver.accepted.length === 2);
      await load(app, [freshRecord(1, { price: '260 000 €', collected_at: at(2) })]);
      await load(app, [freshRecord(1, { price: '260 000 €', collected_at: at(3), status: 'retirée' })]);
      await waitFor('the withdrawal', () => receiver.accepted.length === 3);
      const [created, drop, withdrawal] = receiver.accepted.map((call) => call.event);
      expect([created.type, drop.type, withdrawal.type]).to.deep.equal(['nouvelle', 'baisse_prix', 'retiree']);
      expect(created.annonce.price).to.equal(300000);
      expect(drop).to.deep.include({ previous_price: 300000, alerte: alert.id });
      expect(drop.annonce.price).to.equal(250000);
      expect(drop.annonce.price_history).to.deep.include({ current: 250000, previous: 300000 });
      expect(withdrawal.annonce).to.deep.include({ reference: 'R1', reason: 'retiree' });
      expect(withdrawal.annonce.withdrawn_at).to.be.a('string');
      expect(new Set([created.id, drop.id, withdrawal.id]).size).to.equal(3);
    });

    it("applies the alert's site filters and the account's access start date", async () => {
      const today = new Date().toISOString().slice(0, 10);
      const recent = await app.newKey('sur_mesure', { createdAt: today });
      await createAlert(app, recent, { url: receiver.url, filtres: { sources: 'seloger' } });
      notifier = await startNotifier(app);
      const beforeAccess = new Date(Date.parse(`${today}T00:00:00Z`) - 3_600_000).toISOString();
      // rawRecord takes its site from i % 4: seloger for 0, 4, 8...
      await load(app, [freshRecord(0), freshRecord(1), freshRecord(4), freshRecord(8, { collected_at: beforeAccess })]);
      await load(app, [freshRecord(12)]);
      await waitFor('the seloger listings', () => receiver.accepted.length === 3);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(listingsOf(receiver.calls)).to.deep.equal(['seloger:R0', 'seloger:R4', 'seloger:R12']);
    });
  });
});
