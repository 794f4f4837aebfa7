import { randomUUID } from 'node:crypto';
import type { LinkEvent } from '@tps/link';
import { poll, type ClientResponse, type SignedClient, type Stack, type WebhookReceiver } from '@tps/testing';

/** Shared by the operation suites: bodies, paths, and waiting for an async operation's end. */
export type Json = Record<string, any>;
export type Form = 'local' | 'cloud';
export type Mode = 'sync' | 'async';

/** The Local form reaches the terminal bound to demo-merchant's credentials; Cloud names another. */
export const SERIAL_OF: Record<Form, string> = { local: 'SIM0000001', cloud: 'SIM0000002' };

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FINAL = ['APPROVAL', 'DECLINED', 'TERMINAL_REJECTED', 'TERMINAL_CANCELED'];

export function operationPath(form: Form, mode: Mode, type: string, serial = SERIAL_OF[form]): string {
  return form === 'local' ? `/terminal/v1/${mode}/${type}` : `/terminal/v1/${serial}/${mode}/${type}`;
}

export function searchPath(form: Form, where: 'online' | 'local', serial = SERIAL_OF[form]): string {
  const route = `sync/transaction_search_${where}`;
  return form === 'local' ? `/terminal/v1/${route}` : `/terminal/v1/${serial}/${route}`;
}

/** Waits until the API has stored the transaction's record: the operation is under way. */
export async function recorded(stack: Stack, clientTransactionId: string, timeoutMs: number): Promise<void> {
  await poll(
    `transaction ${clientTransactionId} to be recorded`,
    async () => {
      const rows = await stack.store.rows(
        'api',
        'SELECT 1 FROM transactions WHERE client_transaction_id = ?',
        [clientTransactionId],
      );
      return rows.length > 0 ? true : undefined;
    },
    timeoutMs,
  );
}

/** An amount of `total` centavos, split as a point of sale would (16 % IVA on the rest). */
export function amountOf(total: number): Json {
  const iva = Math.floor(total * 0.16);
  return { iva, subtotal_iva: total - iva, subtotal_iva0: 0 };
}

export function newBody(fields: Json = {}): Json {
  return { client_transaction_id: randomUUID(), metadata: { reference: 'e2e' }, ...fields };
}

/** One search item by client_transaction_id, once its transaction has ended on the service. */
export async function finished(client: SignedClient, clientTransactionId: string): Promise<Json> {
  return poll(
    `transaction ${clientTransactionId} to end`,
    async () => {
      const answer = await client.post<Json>(searchPath('local', 'online'), {
        client_transaction_id: clientTransactionId,
      });
      const item = answer.body.items?.[0];
      return item !== undefined && FINAL.includes(item.status) && item.events.length >= 2 ? item : undefined;
    },
    10_000,
  );
}

/**
 * Runs one operation and answers what it ended with: the Authorization response (sync) or, for
 * async, the acknowledgement and the search item once it ended. Waits until the terminal is free.
 */
export async function operate(
  client: SignedClient,
  form: Form,
  mode: Mode,
  type: string,
  body: Json,
): Promise<{ response: ClientResponse<Json>; reference: string | null; item?: Json }> {
  const response = await poll(
    'the terminal to be free',
    async () => {
      const answer = await client.post<Json>(operationPath(form, mode, type), body);
      return answer.status === 409 && answer.body.code === 'TER-003' ? undefined : answer;
    },
    10_000,
  );
  if (response.status !== 200) return { response, reference: null };
  if (mode === 'sync') {
    await finished(client, body.client_transaction_id);
    return {
      response,
      reference: response.body.approved ? response.body.rawResponse.transaction_reference : null,
    };
  }
  const item = await finished(client, body.client_transaction_id);
  return { response, reference: item.transaction_reference, item };
}

/** Moves the merchant's clock to the next 10:00 Mexico City when it is late in the local day. */
export async function ensureDaytime(client: SignedClient): Promise<void> {
  const clock = (await client.get<Json>('/sandbox/clock')).body;
  const hour = Number(String(clock.local).slice(11, 13));
  if (hour >= 6 && hour < 18) return;
  await moveToMorning(client);
}

/** Moves the merchant's clock to the next 10:00 Mexico City, whatever the hour. */
export async function moveToMorning(client: SignedClient): Promise<void> {
  const clock = (await client.get<Json>('/sandbox/clock')).body;
  const local = Date.parse(String(clock.local).replace('-06:00', 'Z'));
  const next = new Date(local);
  next.setUTCHours(10, 0, 0, 0);
  if (next.getTime() <= local) next.setUTCDate(next.getUTCDate() + 1);
  const seconds = Math.ceil((next.getTime() - local) / 1000);
  const moved = await client.post('/sandbox/clock', { advance_seconds: seconds });
  if (moved.status !== 200) throw new Error(`could not move the clock: ${JSON.stringify(moved.body)}`);
}

/** Seconds from the merchant's now to 22:00:00 Mexico City the same local day. */
export async function secondsTo22h(client: SignedClient): Promise<number> {
  const clock = (await client.get<Json>('/sandbox/clock')).body;
  const local = Date.parse(String(clock.local).replace('-06:00', 'Z'));
  const cutoff = new Date(local);
  cutoff.setUTCHours(22, 0, 0, 0);
  return Math.ceil((cutoff.getTime() - local) / 1000);
}

/** Every transaction of the merchant in online search, page by page, by client_transaction_id. */
export async function everyOnline(client: SignedClient): Promise<Map<string, Json>> {
  const online = new Map<string, Json>();
  let cursor: string | null = null;
  do {
    const page: { body: Json } = await client.post<Json>(searchPath('local', 'online'), {
      limit: 100,
      ...(cursor === null ? {} : { cursor }),
    });
    for (const item of page.body.items as Json[]) online.set(item.client_transaction_id as string, item);
    cursor = page.body.next_cursor as string | null;
  } while (cursor !== null);
  return online;
}

/** A sync charge as it was answered 2xx: approved or not, and its reference. */
export interface AnsweredCharge {
  approved: boolean;
  reference: string | null;
}

/**
 * A sync charge sent with the same id until it is answered 200, which goes into `answered`; each
 * other answer is handed to `refused` (which checks it), then the charge waits 100 ms and goes again.
 */
export async function chargeUntilAnswered(
  client: SignedClient,
  charge: { serial: string; id: string; total: number; attempts: number },
  answered: Map<string, AnsweredCharge>,
  refused: (response: ClientResponse<Json>) => Promise<void>,
): Promise<void> {
  for (let attempt = 0; attempt < charge.attempts; attempt++) {
    const response = await client.post<Json>(`/terminal/v1/${charge.serial}/sync/charge`, {
      amount: amountOf(charge.total),
      client_transaction_id: charge.id,
    });
    if (response.status === 200) {
      const raw = response.body.rawResponse as Json;
      answered.set(charge.id, {
        approved: response.body.approved === true,
        reference: raw.transaction_reference ?? null,
      });
      return;
    }
    await refused(response);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`charge ${charge.id} never answered`);
}

/** The answered charges that search does not show as answered: none may be lost. */
export function lostAnswers(answered: Map<string, AnsweredCharge>, online: Map<string, Json>): string[] {
  const lost: string[] = [];
  for (const [id, answer] of answered) {
    const item = online.get(id);
    const expected = answer.approved ? 'APPROVAL' : 'DECLINED';
    if (item?.status !== expected || (answer.approved && item.transaction_reference !== answer.reference)) {
      lost.push(`${id}: answered ${expected}, search ${item?.status ?? 'nothing'}`);
    }
  }
  return lost;
}

/**
 * An async charge on SIM0000001 run to APPROVAL, its webhooks to `receiver`: the events the
 * service stored for it, in order, as a test that speaks for the terminal replays them.
 */
export async function approvedAsyncChargeEvents(
  stack: Stack,
  receiver: WebhookReceiver,
): Promise<Array<LinkEvent['event']>> {
  const clientTransactionId = randomUUID();
  const response = await stack.client().post('/terminal/v1/SIM0000001/async/charge', {
    amount: { iva: 1600, subtotal_iva: 10000, subtotal_iva0: 0 },
    client_transaction_id: clientTransactionId,
    events_webhook_url: receiver.url(),
  });
  expect(response.status).toBe(200);
  await receiver.waitFor((all) => all.some((r) => (r.body as Json).status === 'APPROVAL'), 10_000);
  const rows = await stack.store.rows<{ envelope: string }>(
    'api',
    `SELECT e.envelope FROM transaction_events e JOIN transactions t ON t.id = e.transaction_id
     WHERE t.client_transaction_id = ? ORDER BY e.sequence`,
    [clientTransactionId],
  );
  return rows.map((row) => JSON.parse(row.envelope) as LinkEvent['event']);
}

/** The service's transactions whose events disagree with their row (count or last status): none may be stored half. */
export async function storedHalf(
  stack: Stack,
): Promise<Array<{ status: string | null; last: string | null }>> {
  const rows = await stack.store.rows<{
    counted: number;
    events: number;
    status: string | null;
    last: string | null;
  }>(
    'api',
    'SELECT t.status, t.event_count AS counted, ' +
      '(SELECT COUNT(*) FROM transaction_events e WHERE e.transaction_id = t.id) AS events, ' +
      '(SELECT e.status FROM transaction_events e WHERE e.transaction_id = t.id ORDER BY e.sequence DESC LIMIT 1) AS last ' +
      'FROM transactions t',
  );
  return rows.filter((row) => row.events !== row.counted || row.last !== row.status);
}
