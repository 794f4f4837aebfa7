import { randomUUID } from 'node:crypto';
import { Stack, WebhookReceiver, createInstantTerminals, sqliteRows, type AppProcess } from '@tps/testing';
import { chargeBody } from './lib/charge-body';

import { storedToReceivedMs } from './lib/outbox-latency';
import { cpuTimeMs } from './lib/resident-memory';
import { percentile } from './lib/stats';

export interface PipelineResult {
  transactionsPerSecond: number;
  completed: number;
  failedRequests: number;
  /** Webhooks received by the receiver, all events of all charges. */
  webhooks: number;
  /** Outbox rows not delivered when the load ended (the run waits for every final webhook). */
  undeliveredWebhooks: number;
  /** Transactions started per second: the offered rate, or what the closed loop reached. */
  startedPerSecond: number;
  /** From APPROVAL stored by the service (its outbox row) to APPROVAL received, ms. */
  approvalP50: number;
  approvalP99: number;
  /** CPU time each app spent per completed transaction during the load, ms. */
  apiCpuMsPerTransaction: number;
  simulatorCpuMsPerTransaction: number;
}

interface Event {
  event_id: string;
  client_transaction_id: string;
  status: string;
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
    const client = stack.client();
    const waiting = new Map<string, () => void>();
    receiver.respondWith((request, _n, response) => {
      response.end();
      const event = request.body as Event;
      if (event.status === 'APPROVAL') waiting.get(event.client_transaction_id)?.();
    });
    const deadline = Date.now() + durationSeconds * 1000;
    let completed = 0;
    let failedRequests = 0;
    let started = 0;
    const runOne = async (serial: string): Promise<void> => {
      started++;
      const id = randomUUID();
      // Registered before the request: the APPROVAL may arrive before the 200 is read.
      const approved = new Promise<void>((resolve) => waiting.set(id, resolve));
      const path = `/terminal/v1/${serial}/async/charge`;
      if ((await client.send('POST', path, chargeBody(receiver.url(), id))).status === 200) {
        await approved;
        completed++;
      } else {
        failedRequests++;
      }
      waiting.delete(id);
    };
    const cpuOf = (app: AppProcess | undefined): number =>
      app?.pid === undefined ? NaN : cpuTimeMs(app.pid);
    const cpuBefore = { api: cpuOf(stack.api), simulator: cpuOf(stack.simulator) };
    const startedAt = Date.now();
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
        const due = startedAt + (tick * 1000) / ratePerSecond;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
        const serial = serials.find((s) => !busy.has(s));
        if (serial === undefined) continue;
        busy.add(serial);
        inFlight.push(runOne(serial).finally(() => busy.delete(serial)));
      }
      await Promise.all(inFlight);
    }
    const elapsed = (Date.now() - startedAt) / 1000;
    const apiCpuMs = cpuOf(stack.api) - cpuBefore.api;
    const simulatorCpuMs = cpuOf(stack.simulator) - cpuBefore.simulator;
    await stack.simulator?.stop();
    await stack.api.stop();
    const approvals = receiver.received.filter((r) => (r.body as Event).status === 'APPROVAL');
    const latencies = await storedToReceivedMs(stack.apiDatabase, approvals);
    const [outbox] = await sqliteRows<{ undelivered: number }>(
      stack.apiDatabase,
      `SELECT COUNT(*) AS undelivered FROM webhook_deliveries WHERE state <> 'delivered'`,
    );
    return {
      transactionsPerSecond: completed / elapsed,
      completed,
      failedRequests,
      webhooks: receiver.received.length,
      undeliveredWebhooks: outbox.undelivered,
      startedPerSecond: started / elapsed,
      approvalP50: percentile(latencies, 50),
      approvalP99: percentile(latencies, 99),
      apiCpuMsPerTransaction: apiCpuMs / completed,
      simulatorCpuMsPerTransaction: simulatorCpuMs / completed,
    };
  } finally {
    await receiver.close();
    await stack.stop();
  }
}
