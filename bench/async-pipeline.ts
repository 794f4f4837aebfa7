import { join } from 'node:path';
import { signRequest } from '@tps/contracts';
import { DEMO_MERCHANT, Stack, WebhookReceiver, sqliteRows } from '@tps/testing';
import { chargeBody } from './lib/charge-body';
import { createInstantTerminals } from './lib/fleet';
import { percentile } from './lib/stats';

export interface PipelineResult {
  transactionsPerSecond: number;
  completed: number;
  failedRequests: number;
  /** From APPROVAL stored by the service to APPROVAL received by the webhook receiver, ms. */
  approvalP50: number;
  approvalP99: number;
}

interface Approval {
  event_id: string;
  client_transaction_id: string;
  status: string;
}

async function postCharge(apiUrl: string, serial: string, webhook: string): Promise<string | undefined> {
  const path = `/terminal/v1/${serial}/async/charge`;
  const body = chargeBody(webhook);
  const signed = signRequest({ ...DEMO_MERCHANT, method: 'POST', path, body });
  const response = await fetch(`${apiUrl}${path}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: signed.authorization,
      timestamp: signed.timestamp,
    },
    body,
  });
  const answer = (await response.json()) as { client_transaction_id?: string };
  return response.status === 200 ? answer.client_transaction_id : undefined;
}

/** Latency of each APPROVAL from the service's stored row to the receiver, in ms. */
async function approvalLatencies(stack: Stack, receiver: WebhookReceiver): Promise<number[]> {
  const received = new Map<string, number>();
  for (const request of receiver.received) {
    const event = request.body as Approval;
    if (event.status === 'APPROVAL') received.set(event.event_id, request.at);
  }
  const rows = await sqliteRows<{ event_id: string; received_at: string }>(
    join(stack.dir, 'api.sqlite'),
    `SELECT event_id, received_at FROM transaction_events WHERE status = 'APPROVAL'`,
  );
  const latencies: number[] = [];
  for (const row of rows) {
    const at = received.get(row.event_id);
    if (at !== undefined) latencies.push(at - Date.parse(`${row.received_at.replace(' ', 'T')}Z`));
  }
  return latencies;
}

/**
 * Transactions carried from the request to the final webhook: each terminal starts its next
 * charge when the last one's APPROVAL arrives (closed loop), or at a fixed total rate (open loop).
 */
export async function measurePipeline(
  terminals: number,
  durationSeconds: number,
  ratePerSecond?: number,
): Promise<PipelineResult> {
  const stack = await Stack.start();
  const receiver = await WebhookReceiver.start();
  try {
    const serials = await createInstantTerminals(stack.client(), terminals);
    const waiting = new Map<string, () => void>();
    receiver.respondWith((request, _n, response) => {
      response.end();
      const event = request.body as Approval;
      if (event.status === 'APPROVAL') waiting.get(event.client_transaction_id)?.();
    });
    const deadline = Date.now() + durationSeconds * 1000;
    let completed = 0;
    let failedRequests = 0;
    const runOne = async (serial: string): Promise<void> => {
      const approved = new Promise<void>((resolve) => {
        void postCharge(stack.apiUrl, serial, receiver.url()).then((id) => {
          if (id === undefined) {
            failedRequests++;
            resolve();
          } else {
            waiting.set(id, () => {
              waiting.delete(id);
              completed++;
              resolve();
            });
          }
        });
      });
      await approved;
    };
    const started = Date.now();
    if (ratePerSecond === undefined) {
      await Promise.all(
        serials.map(async (serial) => {
          while (Date.now() < deadline) await runOne(serial);
        }),
      );
    } else {
      const busy = new Set<string>();
      const inFlight: Array<Promise<void>> = [];
      for (let tick = 0; Date.now() < deadline; tick++) {
        const due = started + (tick * 1000) / ratePerSecond;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
        const serial = serials.find((s) => !busy.has(s));
        if (serial === undefined) continue;
        busy.add(serial);
        inFlight.push(runOne(serial).finally(() => busy.delete(serial)));
      }
      await Promise.all(inFlight);
    }
    const elapsed = (Date.now() - started) / 1000;
    await stack.simulator?.stop();
    await stack.api.stop();
    const latencies = await approvalLatencies(stack, receiver);
    return {
      transactionsPerSecond: completed / elapsed,
      completed,
      failedRequests,
      approvalP50: percentile(latencies, 50),
      approvalP99: percentile(latencies, 99),
    };
  } finally {
    await receiver.close();
    await stack.stop();
  }
}
