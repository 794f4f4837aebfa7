import type { Responder, SignedClient } from '@tps/testing';
import type { Json } from './payment-helpers';

const FINAL = ['APPROVAL', 'DECLINED', 'TERMINAL_REJECTED', 'TERMINAL_CANCELED'];

const ok = (status: number): boolean => status >= 200 && status < 300;

/**
 * What a receiver answered each attempt of each event, by `webhook-id` (the event_id, contract §6),
 * in the order they came: a retry follows an answer other than 2xx (a timeout has none), a double
 * attempt follows a 2xx. The merchant must have a webhook secret, so that attempts carry the id.
 */
export class WebhookTally {
  private readonly answers = new Map<string, number[]>();

  /** A responder answering each attempt `statusOf(whether it is its event's first)`, kept here. */
  responder(statusOf: (first: boolean) => number): Responder {
    return (request, _n, response) => {
      const id = String(request.headers['webhook-id']);
      const answered = this.answers.get(id) ?? [];
      response.statusCode = statusOf(answered.length === 0);
      answered.push(response.statusCode);
      this.answers.set(id, answered);
      response.end();
    };
  }

  /** Whether an attempt of the event was answered 2xx. */
  delivered(eventId: string): boolean {
    return this.answers.get(eventId)?.some(ok) === true;
  }

  /** Events attempted again after an attempt answered 2xx, with what each attempt was answered. */
  doubles(): string[] {
    return [...this.answers]
      .filter(([, statuses]) => {
        const first = statuses.findIndex(ok);
        return first !== -1 && first < statuses.length - 1;
      })
      .map(([id, statuses]) => `${id}: answered ${statuses.join(', ')}`);
  }

  /** Attempts received, and those of them answered other than 2xx. */
  counts(): { attempts: number; refused: number } {
    const all = [...this.answers.values()].flat();
    return { attempts: all.length, refused: all.filter((status) => !ok(status)).length };
  }
}

/**
 * The events the service stored for these transactions (search items) that no attempt delivered:
 * every event after the first (that one is the async answer, contract §6), and the transactions
 * not yet ended, whose last events may be missing.
 */
export function undelivered(items: Iterable<Json>, tally: WebhookTally): string[] {
  const lost: string[] = [];
  for (const item of items) {
    const id = item.client_transaction_id as string;
    if (!FINAL.includes(item.status as string)) lost.push(`${id}: not ended (${item.status})`);
    for (const event of (item.events as Json[]).slice(1)) {
      if (!tally.delivered(event.event_id as string)) lost.push(`${id}: ${event.status} ${event.event_id}`);
    }
  }
  return lost;
}

/**
 * What the delivery log (GET /sandbox/deliveries) says against each transaction's stored events
 * (search items): a delivery for each event after the first, in order, each delivered.
 */
export async function deliveryLogProblems(client: SignedClient, items: Iterable<Json>): Promise<string[]> {
  const problems: string[] = [];
  for (const item of items) {
    const id = item.client_transaction_id as string;
    const log = await client.get<Json>(`/sandbox/deliveries?client_transaction_id=${id}`);
    if (log.status !== 200) {
      problems.push(`${id}: delivery log answered ${log.status}`);
      continue;
    }
    const deliveries = log.body.items as Json[];
    for (const delivery of deliveries.filter((delivery) => delivery.state !== 'delivered'))
      problems.push(`${id}: ${delivery.event_status} ${delivery.event_id} ${delivery.state}`);
    const logged = deliveries.map((delivery) => delivery.event_id as string).join(' ');
    const stored = (item.events as Json[])
      .slice(1)
      .map((event) => event.event_id as string)
      .join(' ');
    if (logged !== stored) problems.push(`${id}: delivered events ${logged}, stored events ${stored}`);
  }
  return problems;
}
