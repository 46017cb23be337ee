/**
 * The API reference page in a real browser (Debian's Chromium, driven by playwright-core): it renders every route,
 * its stylesheet is allowed by its own CSP, nothing errors in the console, and its link reaches the OpenAPI file.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Browser, chromium } from 'playwright-core';
import { sessionRoutes } from '#functions/sessions/routes.js';
import { startTestGateway, type TestGateway } from '#tests/helpers/test-gateway.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

describe('GET /api/docs in Chromium', () => {
  let gw: TestGateway;
  let browser: Browser;

  beforeAll(async () => {
    gw = await startTestGateway();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await gw?.close();
  });

  it('renders every session route with its role and styles, without console errors', async () => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    const response = await page.goto(`${gw.url}/api/docs`);
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('Waygate API');
    const routes = await page.locator('td code').allTextContents();
    for (const route of sessionRoutes) expect(routes).toContain(route.path);
    // Runs in the page; the project's TypeScript has no DOM library, so the window is typed by hand.
    const getColor = await page
      .locator('td.get')
      .first()
      .evaluate(
        (cell) =>
          (globalThis as unknown as { getComputedStyle(e: unknown): { color: string } }).getComputedStyle(
            cell,
          ).color,
      );
    expect(getColor).toBe('rgb(0, 170, 119)');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('links to the OpenAPI document', async () => {
    const page = await browser.newPage();
    await page.goto(`${gw.url}/api/docs`);
    const [response] = await Promise.all([
      page.waitForResponse(/openapi\.json$/),
      page.click('a[href="/api/openapi.json"]'),
    ]);
    expect(response.status()).toBe(200);
    const document = (await response.json()) as { openapi: string };
    expect(document.openapi).toBe('3.1.0');
    await page.close();
  });
});
