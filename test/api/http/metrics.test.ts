/**
 * Operations: GET /metrics in Prometheus format on its own port when METRICS_PORT is set, and the
 * request log line (request id and account, never the key).
 */
import { expect } from 'chai';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import pino from 'pino';
import { startTestApp, type TestApp } from '../../support/app.js';
import { makeListings } from '../../support/fixtures.js';
import { NO_RATE_WINDOWS, offersWith } from '../access/support/quota-app.js';
import { metricsSource, startMetricsServer } from '../../../src/metrics-server.js';

describe('metrics and request logs', function () {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  let app: TestApp;
  let metricsServer: Server;
  let metricsUrl: string;

  before(async () => {
    app = await startTestApp({
      listings: makeListings({ count: 50, seed: 3 }),
      env: { METRICS_PORT: '0' },
      deps: { logger: pino({ level: 'info' }, sink), offers: offersWith({}, NO_RATE_WINDOWS) },
    });
    metricsServer = await startMetricsServer(metricsSource(app.service.deps.metrics!), 0, '127.0.0.1');
    metricsUrl = `http://127.0.0.1:${(metricsServer.address() as AddressInfo).port}/metrics`;
  });
  after(async () => {
    await new Promise((resolve) => metricsServer?.close(resolve));
    await app?.close();
  });

  it('counts requests by route pattern and status, their latency, store calls and refusals', async () => {
    const paid = await app.newKey('sur_mesure');
    const cheap = await app.newKey('ville');
    await app.get('/annonces', paid);
    await app.get('/annonces', paid);
    await app.get('/annonces/seloger/no-such-ref', paid);
    await app.get('/annonces?sources=seloger', cheap);
    await app.get('/nowhere/at/all');
    const answer = await fetch(metricsUrl);
    expect(answer.status).to.equal(200);
    expect(answer.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
    const text = await answer.text();
    expect(text).to.include('annonces_http_requests_total{route="/api/v1/annonces",method="GET",status="200"} 2');
    expect(text).to.include('annonces_http_requests_total{route="/api/v1/annonces/:source/:reference",method="GET",status="404"} 1');
    expect(text).to.include('annonces_http_requests_total{route="unmatched",method="GET",status="404"} 1');
    expect(text).to.match(/annonces_http_request_duration_seconds_bucket\{le="\+Inf",route="\/api\/v1\/annonces",method="GET",status="200"\} 2/);
    expect(text).to.match(/annonces_store_call_duration_seconds_count\{store="listings",operation="search",outcome="ok"\} 2/);
    expect(text).to.match(/annonces_store_call_duration_seconds_count\{store="access",operation="checkQuota",outcome="ok"\} \d+/);
    expect(text).to.include('annonces_quota_refusals_total{code="PAID_PLAN_REQUIRED"} 1');
    expect(text).to.include('process_cpu_user_seconds_total');
    for (const key of [paid, cheap]) expect(text).to.not.include(key);
    expect((await fetch(metricsUrl.replace('/metrics', '/other'))).status).to.equal(404);
  });

  it('logs each request with its id and account, never the key', async () => {
    const key = await app.newKey('sur_mesure', { account: 'acme-logs' });
    lines.length = 0;
    await app.get('/ping', key, { 'X-Request-Id': 'req-logs-1' });
    await app.get('/ping', null, { Authorization: `Bearer ${key}`, 'X-Request-Id': 'req-logs-2' });
    const logged = lines.filter((l) => l.msg === 'request');
    expect(logged.map((l) => [l.req_id, l.account])).to.deep.equal([
      ['req-logs-1', 'acme-logs'],
      ['req-logs-2', 'acme-logs'],
    ]);
    expect(JSON.stringify(lines)).to.not.include(key);
    // The request line is written without redaction (request-context.ts): its fields are these only.
    for (const line of logged) {
      expect(Object.keys(line).sort()).to.deep.equal(['account', 'hostname', 'key', 'level', 'method', 'ms', 'msg', 'path', 'pid', 'req_id', 'status', 'time']);
    }
  });

  it('has no metrics unless METRICS_PORT is set', async () => {
    const plain = await startTestApp();
    try {
      expect(plain.service.deps.metrics).to.equal(undefined);
    } finally {
      await plain.close();
    }
  });
});
