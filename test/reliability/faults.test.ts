/**
 * Over 300 lines on purpose: one suite of faults, each case short and built on the same app and files.
 * The faults of issue #30 found by trying the service as a hostile or unlucky user would, each
 * driven through the command line or HTTP as a user meets it: damaged input files, contact data in
 * the rejects file, oversized texts, a byte order mark, impossible dates, repeated parameters,
 * signed cursors of the wrong shape, and a Redis that lost its data.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { createHmac } from 'node:crypto';
import { generateSample } from '../../indexer/sample/generate.js';
import { rawRecord, writeNdjson } from '../support/raw.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { runLoad } from '../../indexer/load.js';
import { loadSites } from '../../src/core/model/sites.js';
import { loadCommunes } from '../../src/core/refdata/communes.js';
import { TEXT_CAPS, TRUNCATION_MARK } from '../../indexer/text-cap.js';
import { REDACTION_MARKER } from '../../indexer/redact.js';
import { EXIT } from '../../indexer/exit-codes.js';
import { SqliteListingStore } from '../../src/adapters/sqlite-listings/listing-store.js';
import { hasRedisServer, privateRedis } from '../api/access/support/private-redis.js';
import { startQuotaApp, offersWith, NO_RATE_WINDOWS } from '../api/access/support/quota-app.js';
import { connectRedis, waitUntilReady } from '../../src/adapters/redis/client.js';
import { recordReliability } from '../support/reliability-output.js';

const run = promisify(execFile);

async function indexer(args: string[], dataDir: string): Promise<{ code: number; report: any; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'indexer/cli.ts', ...args], {
      env: { ...process.env, DATA_DIR: dataDir, REDIS_URL: '', ES_URL: '' },
    });
    return { code: 0, report: JSON.parse(stdout), stderr };
  } catch (error) {
    const e = error as { stdout: string; stderr: string; code: number };
    return { code: e.code, report: e.stdout ? JSON.parse(e.stdout) : null, stderr: e.stderr };
  }
}

/** Whole lines in what zlib can inflate of a (cut) gzip stream. */
const readableLines = (bytes: Buffer) => gunzipSync(bytes, { finishFlush: constants.Z_SYNC_FLUSH }).toString().split('\n').length - 1;

const rejectsOf = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line));

describe('faults of issue #30', function () {
  this.timeout(120_000);
  const summary: { input: string; lines: number; written: number; exit: number }[] = [];

  describe('input that ends badly: what can be read is loaded and grouped, the rest reported, exit 4', () => {
    const records = [...generateSample({ count: 1500, seed: 21 })].map((r) => JSON.stringify(r.record));
    const text = `${records.join('\n')}\n`;
    const whole = gzipSync(text);
    const grouped = (dataDir: string) => {
      const store = new SqliteListingStore(path.join(dataDir, 'listings.sqlite'));
      try {
        return (store as unknown as { db: { prepare(sql: string): { get(): { n: number } } } }).db
          .prepare('SELECT count(*) AS n FROM listings WHERE dedup_key IS NOT NULL')
          .get().n;
      } finally {
        void store.close();
      }
    };
    const cases: { name: string; bytes: Buffer; damage: RegExp; complete: (written: number) => boolean }[] = [
      // Every whole line zlib can get out of the cut stream is loaded.
      {
        name: 'a truncated gzip file',
        bytes: whole.subarray(0, Math.floor(whole.length * 0.6)),
        damage: /truncated/,
        complete: (n) => n === readableLines(whole.subarray(0, Math.floor(whole.length * 0.6))),
      },
      {
        name: 'garbage after the gzip stream',
        bytes: Buffer.concat([whole, Buffer.from('this is not gzip\n')]),
        damage: /byte\(s\) after the end of the gzip stream/,
        complete: (n) => n === 1500,
      },
      {
        name: 'a plain file whose last line is cut',
        bytes: Buffer.from(text.slice(0, text.length - 40)),
        damage: /last line is cut/,
        complete: (n) => n === 1499,
      },
    ];
    for (const testCase of cases) {
      it(`${testCase.name}`, async () => {
        const dir = mkdtempSync(path.join(tmpdir(), 'damaged-'));
        const file = path.join(dir, 'input');
        writeFileSync(file, testCase.bytes);
        const rejects = path.join(dir, 'rejects.ndjson');
        const result = await indexer(['load', file, '--rejects', rejects], dir);
        expect(result.code, result.stderr).to.equal(EXIT.damagedInput);
        expect(
          result.report.damaged_inputs.some((d: { reason: string }) => testCase.damage.test(d.reason)),
          JSON.stringify(result.report.damaged_inputs),
        ).to.equal(true);
        expect(result.report.rejected).to.equal(0);
        expect(testCase.complete(result.report.written), `written ${result.report.written}`).to.equal(true);
        // Grouped, as a load of the same records that ended well.
        expect(result.report.regrouped_at_end).to.be.above(100);
        expect(grouped(dir)).to.equal(result.report.regrouped_at_end);
        expect(rejectsOf(rejects).some((r) => testCase.damage.test(r.reason))).to.equal(true);
        summary.push({ input: testCase.name, lines: records.length, written: result.report.written, exit: result.code });
      });
    }
    after(() => {
      if (summary.length < cases.length) return;
      recordReliability('damaged-input', {
        title: 'Input that ends badly (truncated gzip, garbage after the gzip stream, a cut last line)',
        test: "test/reliability/faults.test.ts 'input that ends badly'",
        cases: summary.length,
        unit: 'damaged files',
        result: `every readable record loaded and grouped, the damage in the report and the rejects file, exit ${EXIT.damagedInput}: ${summary.map((s) => `${s.input}: ${s.written} of ${s.lines} written`).join('; ')}`,
        details: { files: summary },
      });
    });
  });

  it('the rejects file keeps what the operator needs, never a phone number or an e-mail address', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'rejects-'));
    const file = writeNdjson(
      [
        `\uFEFF${JSON.stringify(rawRecord(1))}`,
        rawRecord(2, {
          source: 'nowhere',
          seller_phone: '06 12 34 56 78',
          seller_email: 'jean@exemple.fr',
          description: 'Appelez le 06 98 76 54 32 ou ecrire a marie.dupont@exemple.fr',
        }),
        '{"source":"seloger","description":"appeler le 07 11 22 33 44 ou paul@exemple.fr", broken',
      ],
      'in.ndjson',
      dir,
    );
    const rejects = path.join(dir, 'rejects.ndjson');
    const result = await indexer(['load', file, '--rejects', rejects], dir);
    expect(result.code, result.stderr).to.equal(0);
    // The byte order mark before the first record does not reject it.
    expect(result.report).to.include({ read: 3, written: 1, rejected: 2 });
    const text = readFileSync(rejects, 'utf8');
    for (const contact of ['06 12 34 56 78', 'jean@exemple.fr', '06 98 76 54 32', 'marie.dupont@exemple.fr', '07 11 22 33 44', 'paul@exemple.fr'])
      expect(text).to.not.include(contact);
    const [unknownSite, broken] = rejectsOf(rejects);
    expect(unknownSite).to.include({ line: 2, field: 'source' });
    expect(JSON.parse(unknownSite.record)).to.include({ source: 'nowhere', reference: 'R2', seller_phone: REDACTION_MARKER, seller_email: REDACTION_MARKER });
    expect(JSON.parse(unknownSite.record).description).to.equal(`Appelez le ${REDACTION_MARKER} ou ecrire a ${REDACTION_MARKER}`);
    expect(broken).to.include({ line: 3, reason: 'invalid JSON' });
    expect(broken.record).to.include('"source":"seloger"').and.include(REDACTION_MARKER);
    recordReliability('rejects', {
      title: 'Contact data in refused records (contact fields, phones and e-mails in texts, a line that is not JSON)',
      test: "test/reliability/faults.test.ts 'the rejects file keeps what the operator needs'",
      cases: 2,
      unit: 'refused records holding 6 phone numbers and e-mail addresses',
      result: 'none of the 6 in the rejects file; fields, values and reasons kept; a first record behind a UTF-8 byte order mark loaded',
    });
  });

  describe('over HTTP', () => {
    let app: TestApp;
    let key: string;
    before(async () => {
      app = await startTestApp();
      app.clock.now = Date.parse('2026-11-20T00:00:00Z');
      key = await app.newKey('sur_mesure');
    });
    after(async () => {
      await app?.close();
    });

    it('a 5 MB description is cut to its cap when loaded; search pages serve the cut text', async () => {
      const huge = 'Très grand appartement. '.repeat(220_000);
      const report = await runLoad({
        files: [writeNdjson([rawRecord(1, { description: huge, title: 'T'.repeat(5000) }), rawRecord(2)])],
        store: app.service.listingStore,
        sites: loadSites(),
        communes: loadCommunes(),
        now: () => Date.parse('2026-11-10T00:00:00Z'),
      });
      expect(report).to.include({ written: 2, texts_truncated: 1 });
      const { status, body } = await app.get('/annonces?page_size=10&dedup=0', key);
      expect(status).to.equal(200);
      const cut = body.items.find((item: any) => item.reference === 'R1');
      expect(cut.description.length).to.be.at.most(TEXT_CAPS.description);
      expect(cut.description.endsWith(TRUNCATION_MARK)).to.equal(true);
      expect(cut.title.length).to.be.at.most(TEXT_CAPS.title);
      expect(body.items.find((item: any) => item.reference === 'R2').description).to.not.include(TRUNCATION_MARK);
      recordReliability('text-cap', {
        title: 'A 5 MB description and a 5 000-character title',
        test: "test/reliability/faults.test.ts 'a 5 MB description is cut to its cap'",
        cases: 1,
        unit: 'record',
        result: `cut to ${TEXT_CAPS.description} and ${TEXT_CAPS.title} characters when loaded, counted in texts_truncated, served cut`,
      });
    });

    it('a day the month lacks is a 400 naming the field, not the next month', async () => {
      for (const value of ['2026-02-30', '2026-04-31', '2025-02-29', '2026-13-01']) {
        const { status, body } = await app.get(`/annonces?updated_since=${value}`, key);
        expect(status, value).to.equal(400);
        expect(body.details, value).to.deep.include({ field: 'updated_since', message: 'is not a valid date' });
      }
      expect((await app.get('/annonces?updated_since=2028-02-29', key)).status).to.equal(200);
      recordReliability('dates', {
        title: 'Days a month lacks (updated_since=2026-02-30 and others)',
        test: "test/reliability/faults.test.ts 'a day the month lacks'",
        cases: 4,
        unit: 'dates',
        result: "each a 400 naming updated_since ('is not a valid date'); 2028-02-29 accepted",
      });
    });

    it('a repeated single-valued parameter is "given more than once", enums included', async () => {
      for (const [query, field] of [
        ['sort=recent&sort=price_asc', 'sort'],
        ['dedup=0&dedup=1', 'dedup'],
        ['transaction=vente&transaction=vente', 'transaction'],
        ['page=1&page=2', 'page'],
      ]) {
        const { status, body } = await app.get(`/annonces?${query}`, key);
        expect(status, query).to.equal(400);
        const detail = body.details.find((d: any) => d.field === field);
        expect(detail?.message, query).to.match(/^given more than once/);
      }
      const { body } = await app.get('/annonces/map?bbox=1,2,3,4&bbox=1,2,3,4', key);
      expect(body.details).to.deep.include({ field: 'bbox', message: 'given more than once; must be given once, as a string' });
      recordReliability('repeated', {
        title: 'Repeated single-valued parameters (sort, dedup, transaction, page, bbox)',
        test: "test/reliability/faults.test.ts 'a repeated single-valued parameter'",
        cases: 5,
        unit: 'parameters',
        result: "each a 400 on the parameter: 'given more than once'",
      });
    });

    it('a correctly signed cursor of the wrong shape is a 400 on cursor, never a 500; out-of-range pages are refused', async () => {
      // Signed with the test app's secret, as CursorCodec signs (another engine or version could have made them).
      const sign = (kind: string, position: unknown) => {
        const payload = Buffer.from(JSON.stringify({ k: kind, p: position })).toString('base64url');
        return `${payload}.${createHmac('sha256', 'test-secret').update(payload).digest('base64url').slice(0, 22)}`;
      };
      const tried: [string, string, unknown][] = [];
      for (const [path, kind] of [
        ['/annonces/feed', 'feed'],
        ['/annonces/retirees', 'retirees'],
      ]) {
        for (const position of [[], [1], [1, 2, 3], ['a', 'b'], [1.5, 2], [-1, 2], [1e300, 1]]) tried.push([path, kind, position]);
      }
      for (const position of [
        [],
        [1],
        [1, 2],
        ['x', 'seloger:R1', 2],
        [1, 'seloger:R1', 0],
        [1, 'seloger:R1', -3],
        [1, 'seloger:R1', 1.5],
        [1, 'seloger:R1', 1e12],
        [1, '', 2],
        [1, 'seloger:R1', 2, 4],
      ]) {
        tried.push(['/annonces', 'search:recent', position]);
      }
      for (const [path, kind, position] of tried) {
        const { status, body } = await app.get(`${path}?cursor=${sign(kind, position)}`, key);
        expect(status, `${path} ${JSON.stringify(position)}`).to.equal(400);
        expect(body.details[0].field).to.equal('cursor');
      }
      // A well-shaped one still works, and keeps its page.
      const ok = await app.get(`/annonces?cursor=${sign('search:recent', [Date.now(), 'zzz:none', 7])}`, key);
      expect(ok.status).to.equal(200);
      expect(ok.body.page).to.equal(7);
      recordReliability('cursors', {
        title: 'Cursors signed with the service secret but of the wrong shape (feed, withdrawn flow, search; pages out of range)',
        test: "test/reliability/faults.test.ts 'a correctly signed cursor of the wrong shape'",
        cases: tried.length,
        unit: 'cursors',
        result: 'each a 400 on cursor, none a 500; a well-shaped one answers with its page',
      });
    });
  });

  describe('Redis quota counters deleted under an account refused for its monthly quota', function () {
    before(function () {
      if (!process.env.REDIS_URL) this.skip();
    });

    it('the account stays refused (402 ITEMS_QUOTA, its counts) until its period ends', async () => {
      const app = await startQuotaApp('redis', offersWith({ secteur: { itemsPerMonth: 20 } }, NO_RATE_WINDOWS));
      const redis = connectRedis(process.env.REDIS_URL!);
      try {
        expect(await waitUntilReady(redis, 5000)).to.equal(true);
        const account = `blocked-${process.pid}-${Date.now()}`;
        const key = await app.newKey('secteur', { account });
        expect((await app.get('/annonces?page_size=25', key)).status).to.equal(200);
        const refused = await app.get('/annonces?page_size=25', key);
        expect(refused.status).to.equal(402);
        expect(refused.body).to.include({ code: 'ITEMS_QUOTA', consomme: 25 });
        // Only the usage keys go (a flush of the wrong pattern, an eviction): the account's hash stays.
        const usage = await redis.keys(`test:quotas:${process.pid}:*usage:{${account}}:*`);
        expect(usage).to.have.length.at.least(2);
        await redis.del(...usage);
        const after = await app.get('/annonces?page_size=25', key);
        expect(after.status).to.equal(402);
        expect(after.body).to.deep.include({ code: 'ITEMS_QUOTA', consomme: 25, repart_le: refused.body.repart_le });
        recordReliability('usage-loss', {
          title: 'Redis usage counters deleted under an account refused for its monthly quota (its account hash kept)',
          test: "test/reliability/faults.test.ts 'Redis quota counters deleted'",
          cases: 1,
          unit: 'deletion',
          result: 'still 402 ITEMS_QUOTA with the counts and resumption date it had (it got a fresh quota)',
        });
      } finally {
        redis.disconnect();
        await app.close();
      }
    });
  });

  describe('a Redis that lost its data (a private redis-server without persistence, restarted)', function () {
    before(function () {
      if (!hasRedisServer()) this.skip();
    });

    it('/health says degraded when Redis refuses writes, and when it lost its accounts (every key a 401)', async () => {
      const redis = await privateRedis({ persistent: false });
      const app = await startQuotaApp('redis', offersWith({}, NO_RATE_WINDOWS), redis.url);
      try {
        const key = await app.newKey('secteur');
        expect((await app.get('/annonces?page_size=1', key)).status).to.equal(200);
        const before = await app.get('/health');
        expect(before.status).to.equal(200);
        expect(before.body.checks.access.detail).to.match(/1 account/);
        // A Redis that answers but refuses writes (here: it wants a replica it does not have).
        const admin = connectRedis(redis.url);
        try {
          expect(await waitUntilReady(admin, 5000)).to.equal(true);
          await admin.config('SET', 'min-replicas-to-write', '1');
          const refusing = await app.get('/health');
          expect(refusing.status).to.equal(503);
          expect(refusing.body.checks.access.detail).to.match(/^Redis refuses writes/);
          await admin.config('SET', 'min-replicas-to-write', '0');
          expect((await app.get('/health')).status).to.equal(200);
        } finally {
          admin.disconnect();
        }
        await redis.stop();
        await redis.start();
        // Back, and empty.
        let health = await app.get('/health');
        for (let i = 0; i < 50 && health.body.checks.access.detail?.startsWith('Redis unreachable'); i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          health = await app.get('/health');
        }
        expect((await app.get('/annonces?page_size=1', key)).status).to.equal(401);
        expect(health.status).to.equal(503);
        expect(health.body.status).to.equal('degraded');
        expect(health.body.checks.access.ok).to.equal(false);
        expect(health.body.checks.access.detail).to.match(/holds no account although it held some/);
        recordReliability('redis-loss', {
          title: 'Redis refusing writes, then restarted without persistence (accounts, keys and counters lost)',
          test: "test/reliability/faults.test.ts 'a Redis that lost its data'",
          cases: 2,
          unit: 'faults (writes refused; a restart without persistence)',
          result: '/health 503 degraded, naming the refused writes, then the lost accounts (it said ok while every key was a 401)',
        });
      } finally {
        await app.close();
        await redis.dispose();
      }
    });
  });
});
