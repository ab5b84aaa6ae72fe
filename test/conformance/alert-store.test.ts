/**
 * ONE conformance suite for every AlertStore adapter: SQLite always, Redis when REDIS_URL is set
 * (skipped loudly otherwise). Two handles on the same data stand for an API process and the notifier.
 */
import { expect } from 'chai';
import { randomUUID } from 'node:crypto';
import { DELIVERY_LOG_SIZE, type Alert, type AlertStore, type DeliveryRecord, type PendingDelivery } from '../../src/core/ports/alert-store.js';
import { accessTargets } from './access/targets.js';

const T0 = Date.parse('2026-03-01T00:00:00Z');

function alertOf(account: string, n: number): Alert {
  return {
    id: `al_${randomUUID()}`,
    account_id: account,
    filtres: { ville: 'Lyon', prix_max: '300000' },
    filter: { cities: ['lyon'], priceMax: 300000 },
    eligible_sites: n % 2 ? ['site-a'] : null,
    evenements: ['nouvelle', 'baisse_prix'],
    url: 'https://hooks.example.com/annonces',
    secret: `secret-${n}`,
    created_at: T0 + n,
    failing_since: null,
    paused_at: null,
  };
}

function pending(alert: Alert, n: number): PendingDelivery {
  return {
    event_id: `evt_${alert.id}_${n}`,
    alert_id: alert.id,
    type: 'nouvelle',
    listing_id: `site-a:${n}`,
    body: JSON.stringify({ n }),
    attempts: 0,
    first_attempt_at: null,
    next_try_at: T0,
    last_status: null,
  };
}

const recordOf = (delivery: PendingDelivery, outcome: DeliveryRecord['outcome'], at: number): DeliveryRecord => ({
  event_id: delivery.event_id,
  type: delivery.type,
  listing_id: delivery.listing_id,
  at,
  status: outcome === 'delivered' ? 204 : 500,
  attempts: delivery.attempts,
  outcome,
});

for (const target of accessTargets()) {
  describe(`AlertStore conformance: ${target.name}`, function () {
    let api: AlertStore;
    let notifier: AlertStore;

    before(async function () {
      if (target.unavailable) {
        console.warn(`\n  !!! SKIPPING the ${target.name} AlertStore conformance suite: ${target.unavailable}\n`);
        this.skip();
      }
      api = await target.openAlerts();
      notifier = await target.openAlerts();
    });
    after(() => target.dispose());

    it('creates alerts up to the limit per account, lists them oldest first, reads one back whole', async function () {
      const account = `acct-${randomUUID()}`;
      const alerts = [alertOf(account, 2), alertOf(account, 1)];
      expect(await api.createAlert(alerts[0], 2)).to.equal(true);
      expect(await api.createAlert(alerts[1], 2)).to.equal(true);
      expect(await api.createAlert(alertOf(account, 3), 2)).to.equal(false);
      expect(await api.createAlert(alertOf(`${account}-other`, 3), 2)).to.equal(true);
      expect(await notifier.listAlerts(account)).to.deep.equal([alerts[1], alerts[0]]);
      expect(await notifier.getAlert(alerts[0].id)).to.deep.equal(alerts[0]);
      expect(await notifier.getAlert('al_unknown')).to.equal(null);
      const everyId = (await notifier.allAlerts()).map((a) => a.id);
      expect(everyId).to.include.members(alerts.map((a) => a.id));
    });

    it('keeps many alerts created at once under the limit', async function () {
      const account = `acct-${randomUUID()}`;
      const created = await Promise.all(Array.from({ length: 12 }, (_, n) => api.createAlert(alertOf(account, n), 5)));
      expect(created.filter(Boolean)).to.have.length(5);
      expect(await api.listAlerts(account)).to.have.length(5);
    });

    it('records the health of an alert, and deleting removes it with its queue, log and seen prices', async function () {
      const account = `acct-${randomUUID()}`;
      const alert = alertOf(account, 1);
      await api.createAlert(alert, 10);
      await notifier.setAlertHealth(alert.id, { failing_since: T0, paused_at: T0 + 5 });
      expect(await api.getAlert(alert.id)).to.deep.include({ failing_since: T0, paused_at: T0 + 5 });
      await notifier.commitFlowStep({
        flow: `f-${alert.id}`,
        position: '[1,1]',
        deliveries: [pending(alert, 1), pending(alert, 2)],
        seen: [{ alert_id: alert.id, listing_id: 'x', price: 5 }],
        forgotten: [],
      });
      await notifier.finishDelivery(pending(alert, 1), recordOf(pending(alert, 1), 'delivered', T0));
      expect(await notifier.deliveryLog(alert.id, 10)).to.have.length(1);
      // A delivery that is not pending (finished already) is not logged twice.
      await notifier.finishDelivery(pending(alert, 1), recordOf(pending(alert, 1), 'delivered', T0));
      expect(await notifier.deliveryLog(alert.id, 10)).to.have.length(1);
      expect(await api.deleteAlert(alert.id)).to.equal(true);
      expect(await api.deleteAlert(alert.id)).to.equal(false);
      expect(await notifier.getAlert(alert.id)).to.equal(null);
      expect(await notifier.nextDelivery(alert.id)).to.equal(null);
      expect(await notifier.pendingCount(alert.id)).to.equal(0);
      expect(await notifier.deliveryLog(alert.id, 10)).to.deep.equal([]);
      expect(await notifier.seenPrices(alert.id, ['x'])).to.deep.equal(new Map());
      expect(await api.listAlerts(account)).to.deep.equal([]);
      // The notifier's late updates do not bring a deleted alert back, nor log for it.
      await notifier.setAlertHealth(alert.id, { failing_since: null, paused_at: null });
      expect(await api.getAlert(alert.id)).to.equal(null);
      await notifier.finishDelivery(pending(alert, 2), recordOf(pending(alert, 2), 'failed', T0));
      expect(await notifier.deliveryLog(alert.id, 10)).to.deep.equal([]);
      // A page committed for it just after the deletion leaves a queue that deleting again removes.
      await notifier.commitFlowStep({ flow: `f-${alert.id}`, position: '[2,2]', deliveries: [pending(alert, 3)], seen: [], forgotten: [] });
      expect(await notifier.deleteAlert(alert.id)).to.equal(false);
      expect(await notifier.nextDelivery(alert.id)).to.equal(null);
      expect(await notifier.pendingCount(alert.id)).to.equal(0);
    });

    it('commits a flow step whole: deliveries queued in order, prices seen, position moved', async function () {
      const alert = alertOf(`acct-${randomUUID()}`, 1);
      await api.createAlert(alert, 10);
      const flow = `feed-${alert.id}`;
      expect(await notifier.flowPosition(flow)).to.equal(null);
      await notifier.commitFlowStep({
        flow,
        position: '[10,"a"]',
        deliveries: [pending(alert, 1), pending(alert, 2)],
        seen: [
          { alert_id: alert.id, listing_id: 'site-a:1', price: 250000 },
          { alert_id: alert.id, listing_id: 'site-a:2', price: 199999.5 },
          { alert_id: alert.id, listing_id: 'site-a:3', price: null },
        ],
        forgotten: [],
      });
      await notifier.commitFlowStep({
        flow,
        position: '[11,"b"]',
        deliveries: [pending(alert, 3)],
        seen: [],
        forgotten: [{ alert_id: alert.id, listing_id: 'site-a:1' }],
      });
      expect(await notifier.flowPosition(flow)).to.equal('[11,"b"]');
      expect(await notifier.pendingCount(alert.id)).to.equal(3);
      expect(await notifier.nextDelivery(alert.id)).to.deep.equal(pending(alert, 1));
      expect(await notifier.seenPrices(alert.id, ['site-a:1', 'site-a:2', 'site-a:3', 'site-a:9'])).to.deep.equal(
        new Map([
          ['site-a:2', 199999.5],
          ['site-a:3', null],
        ]),
      );
    });

    it('retries the head in place, then finishes it into the log, newest first and bounded', async function () {
      const alert = alertOf(`acct-${randomUUID()}`, 1);
      await api.createAlert(alert, 10);
      const count = DELIVERY_LOG_SIZE + 3;
      const deliveries = Array.from({ length: count }, (_, n) => pending(alert, n));
      await notifier.commitFlowStep({ flow: `feed-${alert.id}`, position: '[1]', deliveries, seen: [], forgotten: [] });
      const retried = { ...deliveries[0], attempts: 1, first_attempt_at: T0, next_try_at: T0 + 10_000, last_status: 503 };
      await notifier.rescheduleDelivery(retried);
      expect(await notifier.nextDelivery(alert.id)).to.deep.equal(retried);
      for (const [n, delivery] of deliveries.entries()) {
        await notifier.finishDelivery(delivery, recordOf(delivery, n === 1 ? 'failed' : 'delivered', T0 + n));
        const next = await notifier.nextDelivery(alert.id);
        expect(next?.event_id ?? null).to.equal(deliveries[n + 1]?.event_id ?? null);
      }
      const log = await api.deliveryLog(alert.id, 1000);
      expect(log).to.have.length(DELIVERY_LOG_SIZE);
      expect(log[0]).to.deep.equal(recordOf(deliveries[count - 1], 'delivered', T0 + count - 1));
      expect(log.at(-1)?.event_id).to.equal(deliveries[3].event_id);
      expect((await api.deliveryLog(alert.id, 2)).map((r) => r.event_id)).to.deep.equal([deliveries[count - 1].event_id, deliveries[count - 2].event_id]);
      // A reschedule of a delivery no longer pending changes nothing.
      await notifier.rescheduleDelivery(retried);
      expect(await notifier.pendingCount(alert.id)).to.equal(0);
    });

    it('keeps the queues of two alerts apart', async function () {
      const account = `acct-${randomUUID()}`;
      const [first, second] = [alertOf(account, 1), alertOf(account, 2)];
      await Promise.all([api.createAlert(first, 10), api.createAlert(second, 10)]);
      await notifier.commitFlowStep({
        flow: `feed-${first.id}`,
        position: '[2]',
        deliveries: [pending(second, 1), pending(first, 1), pending(second, 2)],
        seen: [],
        forgotten: [],
      });
      expect((await notifier.nextDelivery(first.id))?.event_id).to.equal(pending(first, 1).event_id);
      expect((await notifier.nextDelivery(second.id))?.event_id).to.equal(pending(second, 1).event_id);
      expect([await notifier.pendingCount(first.id), await notifier.pendingCount(second.id)]).to.deep.equal([1, 2]);
    });
  });
}
