/**
 * GET /docs in a real browser (Debian's chromium driven by playwright-core; .ci/run installs it):
 * the page renders every endpoint of the OpenAPI document, takes a key in "Authorize" and sends a
 * request with it from "Try it out". A screenshot goes to test-output/docs-page.png.
 */
import { expect } from 'chai';
import { existsSync, mkdirSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { startTestApp, type TestApp } from '../../support/app.js';

const CHROMIUM = '/usr/bin/chromium';
// The trailing slash makes test-output a folder for new URL(file, OUTPUT_DIR); without it the file lands beside it.
const OUTPUT_DIR = new URL('../../../test-output/', import.meta.url);

describe('GET /docs in a browser', function () {
  this.timeout(60_000);
  let app: TestApp;
  let browser: Browser;
  let key: string;

  before(async function () {
    if (!existsSync(CHROMIUM)) {
      console.warn(`\n  !!! SKIPPING the docs page test: ${CHROMIUM} is missing (apt-get install chromium)\n`);
      this.skip();
    }
    app = await startTestApp();
    key = await app.newKey('sur_mesure');
    // Closed network, run as root: no sandbox, no background fetches.
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
  });
  after(async () => {
    await browser?.close();
    await app?.close();
  });

  it('shows every endpoint and sends a request with the key entered in Authorize', async () => {
    const document = (await app.get('/openapi.json')).body;
    const page = await browser.newPage();
    const external: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(app.base)) external.push(request.url());
    });
    await page.goto(`${app.base}/docs`);
    await page.locator('.opblock').first().waitFor();
    const shown = await page.locator('.opblock-summary-path').evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-path')));
    // One block per operation: a path with several methods (the alerts' GET, POST, DELETE) shows once per method.
    const operations = Object.values(document.paths as Record<string, Record<string, unknown>>).reduce((n, methods) => n + Object.keys(methods).length, 0);
    expect(shown).to.have.length(operations);
    expect([...new Set(shown)].sort()).to.deep.equal(Object.keys(document.paths).sort());

    await page.locator('button.authorize').first().click();
    await page.locator('.auth-container input').first().fill(key);
    await page.locator('.auth-btn-wrapper button.authorize').first().click();
    await page.locator('.auth-btn-wrapper button.btn-done').first().click();

    const ping = page.locator('#operations-default-getPing');
    await ping.locator('.opblock-summary').click();
    await ping.locator('button.execute').click();
    const status = ping.locator('.live-responses-table .response .response-col_status').first();
    await status.waitFor();
    expect((await status.innerText()).trim()).to.equal('200');
    expect(await ping.locator('.live-responses-table .microlight').first().innerText()).to.include('"ok": true');

    mkdirSync(OUTPUT_DIR, { recursive: true });
    await page.screenshot({ path: new URL('docs-page.png', OUTPUT_DIR).pathname, fullPage: true });
    expect(external, 'the page loads nothing from outside the API').to.deep.equal([]);
  });
});
