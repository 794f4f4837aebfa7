import { join } from 'node:path';
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

  it('signs in with merchant id and secret key; the secret is in no URL', async () => {
    await page.goto(`${stack.apiUrl}/console`);
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

    const id = await startFromForm({
      serial: 'SIM0000002',
      scenario: 'approved (credit card, chip)',
      webhook: receiver.url('/console'),
    });
    await screen('SIM0000002').filter({ hasText: 'Present card' }).waitFor();
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
    await page
      .getByRole('list', { name: 'Recent transactions' })
      .filter({ hasText: body.client_transaction_id.slice(0, 8) })
      .waitFor();

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
    await shoot('console-wall.png', page.getByRole('region', { name: 'Terminals' }));
    await shoot('console-overview.png');
    await card.getByRole('button', { name: 'Bring SIM0000001 online' }).click();
    await screen('SIM0000001').filter({ hasNotText: 'Offline' }).waitFor();
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
});
