import { randomUUID } from 'node:crypto';
import type { Credentials, SignedClient, Stack, WebhookReceiver } from '@tps/testing';
import { amountOf, ensureDaytime, everyOnline, type AnsweredCharge, type Json } from './payment-helpers';

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A sandbox account of the drill: its credentials and its terminals. */
export interface DrillAccount {
  credentials: Credentials;
  serials: string[];
}

/** One request of the load: where it went, and what came back (an answer, or the connection cut). */
export interface Attempt {
  id: string;
  serial: string;
  merchantId: string;
  /** The replica asked; undefined when the load goes through a load balancer. */
  replica: number | undefined;
  /** When it was sent (epoch ms). */
  at: number;
  answer?: { status: number; code: string | null; retryAfter?: string | null } | { cut: string };
}

/** The accounts a drill's fleet is made of, `terminals` each (instant), in daytime. */
export async function makeAccounts(
  client: SignedClient,
  count: number,
  terminals: number,
): Promise<DrillAccount[]> {
  const accounts: DrillAccount[] = [];
  for (let n = 0; n < count; n++) {
    const made = await client.post<Json>('/sandbox/accounts', { terminals, pace: 'instant' });
    if (made.status !== 201) throw new Error(`could not make an account: ${JSON.stringify(made.body)}`);
    const credentials = {
      merchantId: made.body.merchant_id as string,
      secret: made.body.secret_key as string,
    };
    await ensureDaytime(client.as(credentials));
    const serials = (made.body.terminals as Json[]).map((terminal) => terminal.serialNumber as string);
    accounts.push({ credentials, serials });
  }
  return accounts;
}

/** Every transaction of the accounts in online search, by client_transaction_id. */
export async function everyOnlineOf(
  client: SignedClient,
  accounts: DrillAccount[],
): Promise<Map<string, Json>> {
  const online = new Map<string, Json>();
  for (const account of accounts) {
    for (const [id, item] of await everyOnline(client.as(account.credentials))) online.set(id, item);
  }
  return online;
}

/** An async charge with its webhooks to `url`, answered 200; a terminal still busy (TER-003) is asked again. */
export async function asyncCharge(client: SignedClient, serial: string, url: string): Promise<string> {
  const id = randomUUID();
  const body = { amount: amountOf(10_000), client_transaction_id: id, events_webhook_url: url };
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const answer = await client.post<Json>(`/terminal/v1/${serial}/async/charge`, body);
    if (answer.status === 200) return id;
    if (answer.status !== 409 || answer.body.code !== 'TER-003')
      throw new Error(`async charge on ${serial}: ${answer.status} ${JSON.stringify(answer.body)}`);
    await sleep(20);
  }
  throw new Error(`async charge on ${serial}: the terminal stayed busy for 30 s`);
}

/** Every attempt a transaction's receiver got, in order: status and webhook-id. */
function receivedOf(receiver: WebhookReceiver, id: string): Array<[string, string]> {
  return receiver.received
    .filter((request) => (request.body as Json).client_transaction_id === id)
    .map((request): [string, string] => [
      (request.body as Json).status as string,
      request.headers['webhook-id'] as string,
    ]);
}

/** What a transaction's receiver got, in order: status and webhook-id, a repeat of the one before dropped. */
export function receivedInOrder(receiver: WebhookReceiver, id: string): Array<[string, string]> {
  const got = receivedOf(receiver, id);
  return got.filter((item, n) => n === 0 || item[1] !== got[n - 1][1]);
}

/**
 * What a transaction's receiver got as a receiver deduplicating by `event_id` keeps it: each
 * webhook-id at its first arrival. While the storage is down, an attempt that could not be
 * recorded is made again after the later event went (contract, "Order"): 1, 2, 1, 2, 3.
 */
export function firstArrivals(receiver: WebhookReceiver, id: string): Array<[string, string]> {
  const seen = new Set<string>();
  return receivedOf(receiver, id).filter(([, webhookId]) => !seen.has(webhookId) && seen.add(webhookId));
}

export interface ChargeLoadOptions {
  /** Whether an answer other than 200 is one the drill allows (the charge is then asked again). */
  allowed: (attempt: Attempt) => boolean;
  /** Checks an answer other than 200 before the charge is asked again: a problem goes in `unexpected`. */
  check?: (attempt: Attempt) => Promise<string | undefined>;
  /** The pause of each terminal between two charges: the load is paced, a drill, not a benchmark. */
  pauseMs: number;
  /** How long one charge is asked again with its id before the drill calls it never answered. */
  giveUpAfterMs: number;
  /** A load balancer in front of the replicas: every charge is asked of it instead. */
  balancer?: SignedClient;
  /** Async charges with their events to this URL instead of sync ones: each answered 200 goes in `acknowledged`. */
  eventsTo?: string;
}

/**
 * Sync charges on every terminal of the accounts (Cloud form), each asked of the live replicas in
 * turn, as a load balancer would (or of a real one), and asked again with the same id until it is answered 200
 * (contract §19). Records every attempt, every 2xx answer, and what the drill does not allow.
 * With `eventsTo`, the charges are async ones instead, their webhooks to that URL.
 */
export class ChargeLoad {
  /** The replicas requests go to; a drill takes one out as a balancer's health check would. */
  readonly live: number[];
  readonly answered = new Map<string, AnsweredCharge>();
  /** The async charges answered 200 (`eventsTo`): their outcome comes by webhook. */
  readonly acknowledged = new Set<string>();
  readonly attempts: Attempt[] = [];
  readonly inFlight = new Set<Attempt>();
  readonly unexpected: string[] = [];
  private stopping = false;
  private halted = false;
  private turn = 0;
  private loops: Promise<void> | undefined;

  /** `stack`: the replicas asked in turn; none when every charge goes through `options.balancer`. */
  constructor(
    private readonly stack: Stack | undefined,
    private readonly accounts: DrillAccount[],
    private readonly options: ChargeLoadOptions,
  ) {
    this.live = stack?.replicas.map((_, n) => n) ?? [];
  }

  start(): void {
    this.loops = Promise.all(
      this.accounts.flatMap((account) =>
        account.serials.map(async (serial, t) => {
          // Spread over the first pause, so that the terminals do not all start at once.
          await sleep((t * this.options.pauseMs) / account.serials.length);
          while (!this.stopping) {
            await this.charge(account.credentials, serial);
            await sleep(this.options.pauseMs);
          }
        }),
      ),
    ).then(() => undefined);
  }

  /** Stops charging; resolves once every charge under way is answered (or given up). */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.loops;
  }

  /** Stops at once, charges under way left unanswered: for a drill that failed half-way. */
  async halt(): Promise<void> {
    this.halted = true;
    await this.stop();
  }

  /** Waits until `count` more charges are answered than when it was called. */
  async answers(count: number, timeoutMs: number): Promise<void> {
    const target = this.answeredCount + count;
    const deadline = Date.now() + timeoutMs;
    while (this.answeredCount < target) {
      if (Date.now() > deadline) throw new Error(`${count} more answers not there in ${timeoutMs} ms`);
      await sleep(50);
    }
  }

  private get answeredCount(): number {
    return this.answered.size + this.acknowledged.size;
  }

  private async charge(credentials: Credentials, serial: string): Promise<void> {
    const id = randomUUID();
    const { eventsTo } = this.options;
    const path = `/terminal/v1/${serial}/${eventsTo === undefined ? 'sync' : 'async'}/charge`;
    const body = {
      amount: amountOf(10_000),
      client_transaction_id: id,
      ...(eventsTo === undefined ? {} : { events_webhook_url: eventsTo }),
    };
    const deadline = Date.now() + this.options.giveUpAfterMs;
    while (Date.now() < deadline && !this.halted) {
      let asked = this.options.balancer;
      let replica: number | undefined;
      if (asked === undefined) {
        if (this.stack === undefined)
          throw new Error('a charge load without replicas goes through a balancer');
        replica = this.live[this.turn++ % this.live.length];
        asked = this.stack.clientOf(replica);
      }
      const attempt: Attempt = { id, serial, merchantId: credentials.merchantId, replica, at: Date.now() };
      this.attempts.push(attempt);
      this.inFlight.add(attempt);
      try {
        const response = await asked.as(credentials).post<Json>(path, body);
        attempt.answer = {
          status: response.status,
          code: (response.body.code as string | undefined) ?? null,
          retryAfter: response.headers.get('retry-after'),
        };
        if (response.status === 200 && eventsTo !== undefined) {
          this.acknowledged.add(id);
          return;
        }
        if (response.status === 200) {
          const raw = response.body.rawResponse as Json;
          this.answered.set(id, {
            approved: response.body.approved === true,
            reference: (raw.transaction_reference as string | undefined) ?? null,
          });
          return;
        }
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause;
        attempt.answer = { cut: String(cause?.code ?? error) };
      } finally {
        this.inFlight.delete(attempt);
      }
      if (!this.options.allowed(attempt)) this.unexpected.push(describeAttempt(attempt));
      const problem = await this.options.check?.(attempt);
      if (problem !== undefined) this.unexpected.push(`${describeAttempt(attempt)}: ${problem}`);
      await sleep(100);
    }
    this.unexpected.push(`${id} on ${serial}: never answered in ${this.options.giveUpAfterMs} ms`);
  }
}

/** Whether the attempt was answered 200. */
export function answeredOk(attempt: Attempt): boolean {
  return attempt.answer !== undefined && 'status' in attempt.answer && attempt.answer.status === 200;
}

export function describeAttempt(attempt: Attempt): string {
  const answer = attempt.answer;
  const what =
    answer === undefined
      ? 'no answer'
      : 'cut' in answer
        ? `cut (${answer.cut})`
        : `${answer.status} ${answer.code}`;
  const via = attempt.replica === undefined ? 'the balancer' : `replica ${attempt.replica}`;
  return `${attempt.id} on ${attempt.serial} via ${via}: ${what}`;
}
