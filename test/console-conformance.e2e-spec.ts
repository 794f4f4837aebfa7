import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { randomUUID } from 'node:crypto';
import { Browser, Stack, type SignedClient } from '@tps/testing';
import { createReceiver, type ReceiverConfig } from '../examples/webhook-receiver/receiver';
import { brokenReceiver } from './conformance-receivers';
import { amountOf } from './payment-helpers';

/**
 * The console's conformance panel (contract §17) in a real browser: start a run from the form,
 * read its report card. Its own stack and account, so that the run's terminal and charges touch
 * no other console suite. Every wait is on a condition.
 */
const WAIT_MS = 60_000;
/** Set to a folder (docs/) to keep the screenshot the docs show. */
const SCREENSHOTS = process.env.CONSOLE_SCREENSHOTS_DIR;

jest.setTimeout(180_000);

describe('conformance report card in the console', () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  const servers: Server[] = [];
  const pageErrors: string[] = [];
  let config: ReceiverConfig;
  let client: SignedClient;
  let account: { merchant_id: string; secret_key: string; terminals: Array<{ serialNumber: string }> };

  async function signIn(): Promise<void> {
    await page.getByLabel('Merchant id').fill(account.merchant_id);
    await page.getByLabel('Secret key').fill(account.secret_key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByTestId('live').filter({ hasText: 'Live' }).waitFor();
  }

  beforeAll(async () => {
    stack = await Stack.start({ apiEnv: { CONFORMANCE_SEARCH_WINDOW_MS: '3000' } });
    const response = await fetch(`${stack.apiUrl}/sandbox/accounts`, { method: 'POST' });
    account = (await response.json()) as typeof account;
    client = stack.client().as({ merchantId: account.merchant_id, secret: account.secret_key });
    const secret = await client.post('/sandbox/webhook-secret');
    config = {
      webhookSecret: secret.body.secret as string,
      baseUrl: stack.apiUrl,
      merchantId: account.merchant_id,
      secretKey: account.secret_key,
    };
    browser = await Browser.launch();
    page = browser.page;
    page.setDefaultTimeout(WAIT_MS);
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${stack.apiUrl}/console`);
    await signIn();
  });

  afterAll(async () => {
    for (const server of servers) server.close();
    await browser?.close();
    await stack?.stop();
  });

  async function listen(server: Server): Promise<string> {
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
  }

  async function runFromConsole(url: string, score: string): Promise<void> {
    const panel = page.getByRole('region', { name: 'Webhook receiver conformance' });
    await panel.getByLabel('Receiver URL').fill(url);
    // The receivers report what they processed on the same server (GET /processed).
    await panel.getByLabel('Report URL (optional)').fill(new URL('/processed', url).toString());
    await panel.getByRole('button', { name: 'Run conformance' }).click();
    await panel
      .getByTestId('report-card')
      .filter({ hasText: url })
      .and(page.locator('[data-state="finished"]'))
      .waitFor();
    await panel
      .getByTestId('report-card')
      .filter({ hasText: score })
      .waitFor()
      .catch(async (error: unknown) => {
        throw new Error(`${String(error)}\n${await panel.textContent()}`);
      });
  }

  it('starts a run against a receiver and shows its report card: every case, the failed one with its hint', async () => {
    const panel = page.getByRole('region', { name: 'Webhook receiver conformance' });
    await runFromConsole(await listen(createReceiver(config).server), '10/10 passed');
    expect(await panel.locator('li[data-passed="true"]').count()).toBe(10);

    await runFromConsole(await listen(brokenReceiver(config, 'gap-reconcile')), '9/10 passed');
    const failed = panel.locator('li[data-passed="false"]');
    expect(await failed.count()).toBe(1);
    expect(await failed.textContent()).toContain('gap-reconcile');
    expect(await failed.textContent()).toContain('What to change');
    expect(await failed.textContent()).toContain('transaction search');
    // Both runs are listed, newest first.
    expect(await panel.getByLabel('Run').locator('option').allTextContents()).toEqual([
      expect.stringContaining('9/10 passed'),
      expect.stringContaining('10/10 passed'),
    ]);
    if (SCREENSHOTS !== undefined)
      await panel.screenshot({ path: join(SCREENSHOTS, 'console-conformance.png') });
    expect(pageErrors).toEqual([]);
  });

  it("keeps the runs' own terminal and charges off the wall, the payment form and the transaction list", async () => {
    const serials = account.terminals.map((terminal) => terminal.serialNumber);
    const serial = serials[0];
    const charged = await client.post(`/terminal/v1/${serial}/sync/charge`, {
      amount: amountOf(12_345),
      client_transaction_id: randomUUID(),
    });
    expect(charged.status).toBe(200);
    // A fresh page reads the fleet and lists the account's transactions, the runs' included.
    await page.reload();
    await signIn();
    const wall = page.getByRole('region', { name: 'Terminals' });
    for (const shown of serials) await wall.getByRole('article', { name: `Terminal ${shown}` }).waitFor();
    const list = page.getByRole('list', { name: 'Recent transactions' });
    await list.getByRole('button').filter({ hasText: serial }).waitFor();
    expect(await wall.getByRole('article').count()).toBe(serials.length);
    expect(await list.getByRole('button').count()).toBe(1);
    const form = page.getByRole('region', { name: 'New payment' });
    const offered = await form.getByLabel('Terminal').locator('option').allTextContents();
    expect(offered.sort()).toEqual([...serials].sort());
    expect(pageErrors).toEqual([]);
  });

  it('shows a refused start in words, in the contract error shape', async () => {
    const panel = page.getByRole('region', { name: 'Webhook receiver conformance' });
    await panel.getByLabel('Receiver URL').fill('ftp://127.0.0.1/hook');
    await panel.getByRole('button', { name: 'Run conformance' }).click();
    await panel.getByRole('alert').filter({ hasText: 'PAR-004' }).waitFor();
  });

  it('fits a phone (390×844): the report card does not scroll sideways', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const panel = page.getByRole('region', { name: 'Webhook receiver conformance' });
    await panel.scrollIntoViewIfNeeded();
    const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
