import { request } from 'node:http';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Locator, Page } from 'playwright-core';
import { Browser, DEMO_MERCHANT, poll, scenarioBody, Stack, WebhookReceiver } from '@tps/testing';

/**
 * The demo console in a real browser (Debian's chromium, headless) against both apps. Every wait
 * is on a condition, with room for a loaded 2-core machine; none asserts a speed.
 */
const WAIT_MS = 30_000;
/** Set to a folder (docs/) to keep the screenshots the README shows. */
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS_DIR;

jest.setTimeout(180_000);

describe('demo console in the browser (GET /console)', () => {
  let stack: Stack;
  let receiver: WebhookReceiver;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    stack = await Stack.start();
    receiver = await WebhookReceiver.start();
    browser = await Browser.launch();
    page = browser.page;
    page.setDefaultTimeout(WAIT_MS);
    page.on('pageerror', (error) => pageErrors.push(error.message));
  });

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await stack?.stop();
  });

  const screen = (serial: string) => page.getByTestId(`screen-${serial}`);

  /** An element, or what the screen shows (1280×800, or the tablet's). */
  async function shoot(name: string, locator?: Locator): Promise<void> {
    if (SCREENSHOTS === undefined) return;
    const path = join(SCREENSHOTS, name);
    if (locator !== undefined) return void (await locator.screenshot({ path }));
    await page.evaluate('window.scrollTo(0, 0)');
    await page.screenshot({ path });
  }

  /** The raw bytes and headers of a GET, with no decoding on our side. */
  function rawGet(
    url: string,
    acceptEncoding: string,
  ): Promise<{ headers: Record<string, unknown>; body: Buffer }> {
    return new Promise((resolve, reject) => {
      const sent = request(url, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
        response.on('error', reject);
      });
      sent.on('error', reject);
      sent.end();
    });
  }

  /** The right edge of an element lies within the screen's width. */
  async function withinWidth(locator: Locator): Promise<boolean> {
    const box = await locator.boundingBox();
    const width = await page.evaluate<number>('window.innerWidth');
    return box !== null && box.x >= 0 && box.x + box.width <= width;
  }

  async function startFromForm(options: {
    serial: string;
    scenario: string;
    webhook?: string;
  }): Promise<string> {
    const form = page.getByRole('region', { name: 'New payment' });
    await form.getByLabel('Operation').selectOption('charge');
    await form.getByLabel('Terminal').selectOption(options.serial);
    await form.getByLabel('async').check();
    await form.getByLabel('Cloud').check();
    await form.getByLabel('Amount before IVA (pesos)').fill('100');
    await form.getByLabel('Scenario').selectOption({ label: options.scenario });
    await form.getByLabel('Webhook URL (optional)').fill(options.webhook ?? '');
    await form.getByRole('button', { name: 'Send' }).click();
    await form.getByTestId('answer').filter({ hasText: 'TERMINAL_ACKNOWLEDGED' }).waitFor();
    const answer = JSON.parse((await form.getByTestId('answer').textContent()) ?? '{}');
    return answer.client_transaction_id as string;
  }

  it('serves the page without credentials, under a policy that allows only this service', async () => {
    const response = await fetch(`${stack.apiUrl}/console`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(await response.text()).toContain('<div id="app">');
  });

  it('serves the script compressed when asked (gzip or brotli), the same bytes once decoded', async () => {
    const html = await (await fetch(`${stack.apiUrl}/console`)).text();
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const plain = await rawGet(`${stack.apiUrl}${script}`, 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(10_000);

    const gzip = await rawGet(`${stack.apiUrl}${script}`, 'gzip, deflate');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gzip.headers['content-type']).toMatch(/javascript/);
    expect(gzip.headers['vary']).toMatch(/accept-encoding/i);
    expect(gzip.body.length).toBeLessThan(plain.body.length / 2);
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);

    const brotli = await rawGet(`${stack.apiUrl}${script}`, 'gzip, deflate, br');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.body).equals(plain.body)).toBe(true);

    // A weight of 0 refuses an encoding.
    const noBrotli = await rawGet(`${stack.apiUrl}${script}`, 'br;q=0, gzip');
    expect(noBrotli.headers['content-encoding']).toBe('gzip');
  });

  it('signs in with merchant id and secret key; the secret is in no URL', async () => {
    await page.goto(`${stack.apiUrl}/console`);
    // A newcomer is told where the demo credentials are.
    const hint = await page.getByTestId('demo-credentials').textContent();
    expect(hint).toContain(DEMO_MERCHANT.merchantId);
    expect(hint).toContain(DEMO_MERCHANT.secret);
    await page.getByLabel('Merchant id').fill(DEMO_MERCHANT.merchantId);
    await page.getByLabel('Secret key').fill('not-the-secret');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'wrong secret key' }).waitFor();

    // The keyboard alone signs in.
    await page.getByLabel('Secret key').fill(DEMO_MERCHANT.secret);
    await page.getByLabel('Secret key').press('Enter');
    await page.getByTestId('live').filter({ hasText: 'Live' }).waitFor();
    await screen('SIM0000001').waitFor();
    await screen('SIM0000002').waitFor();
    expect(page.url()).not.toContain(DEMO_MERCHANT.secret);
    expect(await page.getByRole('region', { name: 'Terminals' }).textContent()).not.toContain('SIM0000003');
  });

  it('a charge from the form on a manual terminal waits for the tap on the wall, then is approved with its webhooks and receipt', async () => {
    const card = page.getByRole('article', { name: 'Terminal SIM0000002' });
    await card.getByLabel('Cardholder manual').check();
    await poll(
      'SIM0000002 to be manual',
      async () => {
        const fleet = await stack.client().get<Array<Record<string, string>>>('/sandbox/terminals');
        return fleet.body.find((t) => t.serialNumber === 'SIM0000002')?.cardholder === 'manual'
          ? true
          : undefined;
      },
      WAIT_MS,
    );
    // Whoever else watches the shared merchant sees since when, from where, and when it lapses.
    await card
      .getByTestId('cardholder-note')
      .filter({ hasText: /manual, set (just now|\d+ min ago) from / })
      .waitFor();
    expect(await card.getByTestId('cardholder-note').textContent()).toMatch(/back to auto in \d+ min/);

    const id = await startFromForm({
      serial: 'SIM0000002',
      scenario: 'approved (credit card, chip)',
      webhook: receiver.url('/console'),
    });
    await screen('SIM0000002').filter({ hasText: 'Present card' }).waitFor();
    // The scenario's select is as wide as its chosen words need: nothing cut off.
    const scenarioFits = await page
      .getByRole('region', { name: 'New payment' })
      .getByLabel('Scenario')
      .evaluate((select) => {
        const shown = select.getBoundingClientRect().width;
        const { width, maxWidth } = select.style;
        select.style.width = 'auto';
        select.style.maxWidth = 'none';
        const needed = select.getBoundingClientRect().width;
        select.style.width = width;
        select.style.maxWidth = maxWidth;
        return shown + 0.5 >= needed;
      });
    expect(scenarioFits).toBe(true);
    await expect(page.getByTestId('curl').textContent()).resolves.toContain(
      '/terminal/v1/SIM0000002/async/charge',
    );

    await card.getByRole('button', { name: 'Tap a card on SIM0000002' }).click();
    await screen('SIM0000002').filter({ hasText: 'Approved' }).waitFor();
    expect(await screen('SIM0000002').textContent()).toContain('CONTACTLESS');

    const timeline = page.getByTestId('timeline');
    await timeline.filter({ hasText: id }).waitFor();
    await poll(
      'four events, three webhooks delivered',
      async () => {
        const events = await timeline.locator('li.step').count();
        const delivered = await timeline.locator('.delivery[data-state="delivered"]').count();
        return events === 4 && delivered === 3 ? true : undefined;
      },
      WAIT_MS,
    );
    expect(
      await timeline
        .locator('li.step')
        .evaluateAll((steps) => steps.map((s) => s.getAttribute('data-status'))),
    ).toEqual(['TERMINAL_ACKNOWLEDGED', 'CARD_PRESENTED', 'APPROVAL_REQUESTED', 'APPROVAL']);
    // Each event's time of day sits on one line (a wrapped inline box has more than one
    // rectangle), and the times line up under one another.
    const times = await timeline
      .locator('.step-time')
      .evaluateAll((all) =>
        all.map((t) => ({ rects: t.getClientRects().length, left: t.getBoundingClientRect().left })),
      );
    expect(times.map((t) => t.rects)).toEqual([1, 1, 1, 1]);
    expect(new Set(times.map((t) => Math.round(t.left))).size).toBe(1);
    expect(receiver.bodies('/console').map((b: any) => b.status)).toEqual([
      'CARD_PRESENTED',
      'APPROVAL_REQUESTED',
      'APPROVAL',
    ]);

    // The POST's answer is held until the live stream has told the job printed: the page must
    // not take the late answer (PENDING) for news and lose the receipt. The receipt is checked
    // once the answer has reached the page and a frame has been drawn after it.
    const printRoute = '**/terminal/v1/SIM0000002/print';
    const receipts = page.getByRole('region', { name: 'Receipts' });
    await page.route(printRoute, async (route) => {
      const answer = await route.fetch();
      await receipts.locator('figure[data-status="COMPLETED"]').waitFor();
      await route.fulfill({ response: answer });
    });
    const answered = page.waitForResponse((response) =>
      response.url().endsWith('/terminal/v1/SIM0000002/print'),
    );
    await timeline.getByRole('button', { name: 'Print the receipt of this transaction' }).click();
    const lateAnswer = await answered;
    expect(lateAnswer.status()).toBe(202);
    await lateAnswer.finished();
    await page.unroute(printRoute);
    await page.evaluate(
      'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))',
    );
    expect(await receipts.locator('figure').first().getAttribute('data-status')).toBe('COMPLETED');
    const paper = receipts.getByTestId('paper').first();
    expect(await paper.textContent()).toContain('APPROVED');
    expect(await paper.textContent()).toContain('TOTAL MXN');
    expect(await paper.locator('.bold').count()).toBeGreaterThan(0);

    await shoot('console-timeline.png', page.getByRole('region', { name: 'Transactions' }));
  });

  it('a charge and a print job made with signed HTTP requests, not the console, appear live', async () => {
    const body = scenarioBody('00');
    expect((await stack.client().post('/terminal/v1/SIM0000001/async/charge', body)).status).toBe(200);
    await screen('SIM0000001').filter({ hasText: 'Approved' }).waitFor();
    const row = page
      .getByRole('list', { name: 'Recent transactions' })
      .getByRole('listitem')
      .filter({ hasText: body.client_transaction_id.slice(0, 8) });
    await row.filter({ hasText: '$116.00' }).waitFor();
    const found = await stack
      .client()
      .post<{ items: Array<{ created_at: string }> }>(
        '/terminal/v1/SIM0000001/sync/transaction_search_online',
        {
          client_transaction_id: body.client_transaction_id,
        },
      );
    // The time it was made, on the merchant's clock in Mexico City (UTC-6, contract §8).
    const createdAt = found.body.items[0].created_at;
    const time = row.locator(`time[datetime="${createdAt}"]`);
    await time.waitFor();
    expect(await time.textContent()).toBe(
      new Date(Date.parse(createdAt) - 6 * 3600_000).toISOString().slice(11, 19),
    );

    const job = await stack.client().post<Record<string, string>>('/terminal/v1/SIM0000001/print', {
      commands: [
        { type: 'text', value: 'DEMO STORE', align: 'center', bold: true },
        { type: 'text', value: 'Thank you for your visit', align: 'center' },
        { type: 'feed', lines: 1 },
        { type: 'qr', value: 'https://example.com/invoice/1234' },
        { type: 'barcode', value: 'ORDER-1234' },
        { type: 'cut' },
      ],
    });
    expect(job.status).toBe(202);
    const paper = page.getByTestId('paper').filter({ hasText: 'DEMO STORE' });
    await paper.waitFor();
    await paper.getByRole('img', { name: 'QR code: https://example.com/invoice/1234' }).waitFor();
    await paper.getByRole('img', { name: 'Barcode: ORDER-1234' }).locator('rect').first().waitFor();
    await shoot('console-receipt.png', page.getByRole('region', { name: 'Receipts' }));
  });

  it('a terminal added elsewhere joins the wall; a declined scenario shows its code on its screen', async () => {
    const added = await stack
      .client()
      .post('/sandbox/terminals', { serial: 'PATIO00001', room: 'patio', pace: 'instant' });
    expect(added.status).toBe(201);
    await screen('PATIO00001').waitFor();
    await startFromForm({ serial: 'PATIO00001', scenario: 'declined: insufficient funds (51)' });
    await screen('PATIO00001').filter({ hasText: 'Declined 51' }).waitFor();
    const card = page.getByRole('article', { name: 'Terminal PATIO00001' });
    await card.getByLabel('Printer').selectOption('paper_out');
    await screen('PATIO00001').filter({ hasText: 'printer paper out' }).waitFor();
  });

  it('offline shows on the card, and online again brings the terminal back', async () => {
    const card = page.getByRole('article', { name: 'Terminal SIM0000001' });
    await card.getByRole('button', { name: 'Take SIM0000001 offline' }).click();
    await screen('SIM0000001').filter({ hasText: 'Offline' }).waitFor();
    // No card can be presented to an offline terminal, nor to an idle one: the button says why.
    const tap = card.getByRole('button', { name: 'Tap a card on SIM0000001' });
    expect(await tap.isDisabled()).toBe(true);
    expect(await tap.getAttribute('title')).toBe('SIM0000001 is offline');
    const idleTap = page.getByRole('button', { name: 'Tap a card on SIM0000002' });
    expect(await idleTap.isDisabled()).toBe(true);
    expect(await idleTap.getAttribute('title')).toBe('nothing on SIM0000002 waits for a card');
    await shoot('console-wall.png', page.getByRole('region', { name: 'Terminals' }));
    await shoot('console-overview.png');
    await card.getByRole('button', { name: 'Bring SIM0000001 online' }).click();
    await screen('SIM0000001').filter({ hasNotText: 'Offline' }).waitFor();
    // Back online it is idle again, not showing the outcome it had before it went away.
    await screen('SIM0000001').filter({ hasText: 'Ready' }).waitFor();
  });

  it('fits a tablet: one column, nothing wider than the screen', async () => {
    await page.setViewportSize({ width: 820, height: 1180 });
    await screen('SIM0000001').waitFor();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await shoot('console-tablet.png');
    expect(pageErrors).toEqual([]);
    // Everything the console did in this suite ran under its policy without a refusal.
    expect(browser.cspViolations).toEqual([]);
  });

  it('fits a phone (390×844): nothing scrolls sideways, the main controls are on the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await screen('SIM0000001').waitFor();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    const form = page.getByRole('region', { name: 'New payment' });
    const controls = [
      form.getByLabel('Operation'),
      form.getByLabel('Terminal'),
      form.getByLabel('Scenario'),
      form.getByRole('button', { name: 'Send' }),
      screen('SIM0000001'),
      page.getByRole('button', { name: 'Tap a card on SIM0000001' }),
      page.getByRole('button', { name: 'Advance' }),
      page.getByRole('button', { name: 'Sign out' }),
    ];
    for (const control of controls) {
      await control.scrollIntoViewIfNeeded();
      expect(await control.isVisible()).toBe(true);
      expect(await withinWidth(control)).toBe(true);
    }
    // After Send, the terminal's screen is brought into view, above the long answer.
    await form.getByLabel('Terminal').selectOption('SIM0000001');
    await form.getByRole('button', { name: 'Send' }).scrollIntoViewIfNeeded();
    await form.getByRole('button', { name: 'Send' }).click();
    await poll(
      "the terminal's screen to be in view after Send",
      async () => {
        const box = await screen('SIM0000001').boundingBox();
        return box !== null && box.y >= 0 && box.y + box.height <= 844 ? true : undefined;
      },
      WAIT_MS,
    );
    await shoot('console-phone.png');
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(pageErrors).toEqual([]);
  });

  it('the header clock ticks with the sandbox clock, and a 29-day advance reads in days', async () => {
    const clock = page.getByTestId('clock');
    const first = await clock.textContent();
    expect(first).toMatch(/\d{2}:\d{2}:\d{2} Mexico City/);
    await poll(
      'the clock to tick',
      async () => ((await clock.textContent()) !== first ? true : undefined),
      WAIT_MS,
    );

    // No move is chosen for the viewer: Advance waits for a choice.
    expect(await page.getByLabel('Advance the clock by').inputValue()).toBe('');
    expect(await page.getByRole('button', { name: 'Advance' }).isDisabled()).toBe(true);
    await page.getByLabel('Advance the clock by').selectOption({ label: '+29 days' });
    await page.getByRole('button', { name: 'Advance' }).click();
    await clock.filter({ hasText: '(+29 d)' }).waitFor();
    const reading = await stack.client().get<{ local: string }>('/sandbox/clock');
    // The date shown is the sandbox's, 29 days ahead of today's.
    expect(await clock.textContent()).toContain(reading.body.local.slice(0, 10));
    expect(pageErrors).toEqual([]);
  });
});
