import { randomUUID } from 'node:crypto';
import { Stack, WebhookReceiver, createInstantTerminals, type StoreKind } from '@tps/testing';
import { chargeBody } from './lib/charge-body';
import { SignedPoster } from './lib/signed-post';

import { storedToReceivedMs } from './lib/outbox-latency';
import { cpuTimeMs, ofPid, sampleResident, type LoadMemory } from './lib/resident-memory';
import { percentile } from './lib/stats';

/** One phase of a pipeline run: what was started, carried and spent. */
export interface PipelinePhase {
  seconds: number;
  started: number;
  completed: number;
  failedRequests: number;
  /** Transactions carried to their APPROVAL webhook per second. */
  transactionsPerSecond: number;
  /** Transactions started per second: the offered rate, or what the closed loop reached. */
  startedPerSecond: number;
  /** CPU time each app spent per completed transaction during the phase, ms. */
  apiCpuMsPerTransaction: number;
  simulatorCpuMsPerTransaction: number;
  /**
   * This process's CPU per completed transaction: the points of sale and the webhook receiver
   * (absent from the JSON of runs made before it was measured).
   */
  loadGeneratorCpuMsPerTransaction?: number;
}

/** The measured phase (its figures at the top level, as before warm-ups), and the warm-up before it. */
export interface PipelineResult extends PipelinePhase {
  /** Webhooks received by the receiver, all events of all charges of both phases. */
  webhooks: number;
  /** Outbox rows not delivered when the load ended (the run waits for every final webhook). */
  undeliveredWebhooks: number;
  /** From APPROVAL stored by the service (its outbox row) to APPROVAL received, measured phase, ms. */
  approvalP50: number;
  approvalP99: number;
  /** The warm-up on the same processes, before the measured phase (none at 0 s). */
  warmup?: PipelinePhase;
  memory: LoadMemory;
}

function cpuMs(usage: NodeJS.CpuUsage): number {
  return (usage.user + usage.system) / 1000;
}

interface Event {
  event_id: string;
  client_transaction_id: string;
  status: string;
}

/**
 * Transactions carried from the request to the final webhook: each terminal starts its next
 * charge when the last one's APPROVAL arrives (closed loop), or at a fixed total rate (open loop).
 * A warm-up of `warmupSeconds` runs the same load on the same processes first; the measured phase
 * starts once every warm-up transaction has its APPROVAL. Both apps store on `store` (SQLite by default).
 */
export async function measurePipeline(
  terminals: number,
  durationSeconds: number,
  ratePerSecond?: number,
  warmupSeconds = 0,
  store: StoreKind = 'sqlite',
): Promise<PipelineResult> {
  const stack = await Stack.start({ store });
  const receiver = await WebhookReceiver.start();
  const poster = new SignedPoster(stack.api.url, terminals);
  try {
    const serials = await createInstantTerminals(stack.client(), terminals);
    const pids = { api: stack.api.pid, simulator: stack.simulator?.pid };
    const idle = await sampleResident(pids);
    const waiting = new Map<string, () => void>();
    receiver.respondWith((request, _n, response) => {
      response.end();
      const event = request.body as Event;
      if (event.status === 'APPROVAL') waiting.get(event.client_transaction_id)?.();
    });

    const runPhase = async (seconds: number, ids: Set<string>): Promise<PipelinePhase> => {
      let completed = 0;
      let failedRequests = 0;
      let started = 0;
      const runOne = async (serial: string): Promise<void> => {
        started++;
        const id = randomUUID();
        ids.add(id);
        // Registered before the request: the APPROVAL may arrive before the 200 is read.
        const approved = new Promise<void>((resolve) => waiting.set(id, resolve));
        const path = `/terminal/v1/${serial}/async/charge`;
        if ((await poster.post(path, chargeBody(receiver.url(), id))) === 200) {
          await approved;
          completed++;
        } else {
          failedRequests++;
        }
        waiting.delete(id);
      };
      const cpuBefore = { api: ofPid(pids.api, cpuTimeMs), simulator: ofPid(pids.simulator, cpuTimeMs) };
      const ownBefore = process.cpuUsage();
      const startedAt = Date.now();
      const deadline = startedAt + seconds * 1000;
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
      return {
        seconds: elapsed,
        started,
        completed,
        failedRequests,
        transactionsPerSecond: completed / elapsed,
        startedPerSecond: started / elapsed,
        apiCpuMsPerTransaction: (ofPid(pids.api, cpuTimeMs) - cpuBefore.api) / completed,
        simulatorCpuMsPerTransaction: (ofPid(pids.simulator, cpuTimeMs) - cpuBefore.simulator) / completed,
        loadGeneratorCpuMsPerTransaction: cpuMs(process.cpuUsage(ownBefore)) / completed,
      };
    };

    const warmup = warmupSeconds > 0 ? await runPhase(warmupSeconds, new Set()) : undefined;
    const measuredIds = new Set<string>();
    const measured = await runPhase(durationSeconds, measuredIds);
    const loaded = await sampleResident(pids);
    await stack.simulator?.stop();
    await stack.api.stop();
    const approvals = receiver.received.filter((r) => {
      const event = r.body as Event;
      return event.status === 'APPROVAL' && measuredIds.has(event.client_transaction_id);
    });
    const latencies = await storedToReceivedMs(stack.store, approvals);
    const [outbox] = await stack.store.rows<{ undelivered: number }>(
      'api',
      `SELECT COUNT(*) AS undelivered FROM webhook_deliveries WHERE state <> 'delivered'`,
    );
    return {
      ...measured,
      webhooks: receiver.received.length,
      undeliveredWebhooks: outbox.undelivered,
      approvalP50: percentile(latencies, 50),
      approvalP99: percentile(latencies, 99),
      warmup,
      memory: {
        idleApiMiB: idle.api,
        idleSimulatorMiB: idle.simulator,
        loadedApiMiB: loaded.api,
        loadedSimulatorMiB: loaded.simulator,
        transactions: measured.completed + (warmup?.completed ?? 0),
      },
    };
  } finally {
    await poster.close();
    await receiver.close();
    await stack.stop();
  }
}
