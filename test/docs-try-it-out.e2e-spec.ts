import type { Page } from 'playwright-core';
import { Browser, Stack } from '@tps/testing';

jest.setTimeout(180_000);
const WAIT_MS = 30_000;

/**
 * Contract §18: the document works as served, under its Content-Security-Policy. "Try it out" in /docs, in a real browser, on the
 * ephemeral port the test's sandbox listens on (never the default :3000): the page signs the
 * request and the answer comes back.
 */
describe('/docs "Try it out" on any host and port', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    stack = await Stack.start();
    browser = await Browser.launch();
    page = browser.page;
    page.setDefaultTimeout(WAIT_MS);
  });

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  it('authorizes with merchant_id:secret_key, runs a signed GET, and shows its 200', async () => {
    expect(new URL(stack.apiUrl).port).not.toBe('3000');
    await page.goto(`${stack.apiUrl}/docs`);
    await page.locator('button.authorize').first().click();
    const dialog = page.locator('.dialog-ux');
    await dialog.locator('#api_key_value').fill('demo-merchant:demo-secret-key');
    await dialog.locator('button.modal-btn.authorize').click();
    await dialog.locator('button.btn-done').click();

    const operation = page.locator('.opblock-get', { has: page.locator('[data-path="/sandbox/clock"]') });
    await operation.locator('.opblock-summary').first().click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.getByRole('button', { name: 'Execute' }).click();
    const status = operation.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();
    expect((await status.innerText()).trim()).toBe('200');
    const answer = JSON.parse(
      await operation.locator('.live-responses-table tbody .microlight').first().innerText(),
    );
    expect(answer).toEqual(expect.objectContaining({ offset_seconds: 0 }));
    // The page, its scripts and "Try it out" all ran under the /docs policy without a refusal.
    expect(browser.cspViolations).toEqual([]);
  });

  it('charges with the example body as shown, each execution with a fresh id; an id typed stays', async () => {
    const operation = page.locator('.opblock-post', {
      has: page.locator('[data-path="/terminal/v1/sync/charge"]'),
    });
    await operation.locator('.opblock-summary').first().click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    // The signature's headers are the page's to send: no field asks for a timestamp.
    expect(await operation.locator('tr[data-param-name="timestamp"]').count()).toBe(0);
    const execute = async (): Promise<{ sent: { client_transaction_id: string }; answer: any }> => {
      const [response] = await Promise.all([
        page.waitForResponse(
          (r) => r.url().endsWith('/terminal/v1/sync/charge') && r.request().method() === 'POST',
        ),
        operation.getByRole('button', { name: 'Execute' }).click(),
      ]);
      expect(response.status()).toBe(200);
      return { sent: JSON.parse(response.request().postData() ?? '{}'), answer: await response.json() };
    };
    const example = JSON.parse(await operation.locator('textarea.body-param__text').inputValue());
    expect(example.client_transaction_id).toMatch(/^00000000-0000-4000-8000-[0-9a-f]{12}$/);
    const first = await execute();
    const second = await execute();
    for (const { sent, answer } of [first, second]) {
      expect(sent.client_transaction_id).not.toBe(example.client_transaction_id);
      expect(answer).toEqual(expect.objectContaining({ approved: true }));
    }
    expect(second.sent.client_transaction_id).not.toBe(first.sent.client_transaction_id);
    expect(second.answer.rawResponse.transaction_reference).not.toBe(
      first.answer.rawResponse.transaction_reference,
    );

    // An id of the visitor's own is sent as typed: the repeat is answered with the first charge.
    const typed = crypto.randomUUID();
    await operation
      .locator('textarea.body-param__text')
      .fill(JSON.stringify({ ...example, client_transaction_id: typed }));
    const once = await execute();
    const again = await execute();
    expect([once.sent.client_transaction_id, again.sent.client_transaction_id]).toEqual([typed, typed]);
    expect(again.answer.rawResponse.transaction_reference).toBe(
      once.answer.rawResponse.transaction_reference,
    );
    expect(browser.cspViolations).toEqual([]);
  });
});

describe('the address itself, and CORS (sandbox profile)', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await Stack.start({ withoutSimulator: true });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('GET / points to the console, the docs, the OpenAPI document and readiness, each served', async () => {
    const home = (await (await fetch(`${stack.apiUrl}/`)).json()) as { links: Record<string, string> };
    expect(home).toEqual({
      service: 'Terminal Payment Service',
      profile: 'sandbox',
      links: {
        console: '/console',
        docs: '/docs',
        openapi: '/openapi.json',
        ready: '/ready',
        health: '/health',
      },
    });
    for (const path of Object.values(home.links)) {
      // /ready waits for a simulator this stack does not start: served, and saying why it is not ready.
      expect([path, (await fetch(`${stack.apiUrl}${path}`)).status]).toEqual([
        path,
        path === '/ready' ? 503 : 200,
      ]);
    }
  });

  it('answers a preflight from any origin for the signed headers, and exposes Retry-After', async () => {
    const preflight = await fetch(`${stack.apiUrl}/terminal/v1/sync/charge`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://pos.example.test:8080',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,timestamp,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase().split(',')).toEqual(
      expect.arrayContaining(['authorization', 'timestamp', 'content-type']),
    );
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');

    const answer = await fetch(`${stack.apiUrl}/health`, {
      headers: { origin: 'http://pos.example.test:8080' },
    });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    expect(answer.headers.get('access-control-expose-headers')).toContain('Retry-After');
  });
});
