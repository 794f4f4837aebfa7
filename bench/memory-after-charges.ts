import { Stack, createInstantTerminals } from '@tps/testing';
import { runLoad } from './lib/load';
import { ofPid, residentMiB, sampleResident } from './lib/resident-memory';
import { signedCharge } from './sync-charge-comparison';

/** Both apps' resident memory, MiB. */
export interface ResidentPair {
  api: number;
  simulator: number;
}

/**
 * The issue's memory target read as written, "memory after 100,000 transactions": the same two
 * processes idle, then after carrying that many sync charges, each sampled a second after the
 * last request and again after `restSeconds` without any. A second after a load, V8's heap still
 * holds the garbage of the last seconds (it shrinks it only once the process has been quiet for
 * a while, its memory reducer); at rest, what is left is what the processes keep.
 */
export interface MemoryAfterCharges {
  /** Charges carried (2xx) between the idle and the loaded samples. */
  charges: number;
  restSeconds: number;
  idle: ResidentPair;
  idleAtRest: ResidentPair;
  loaded: ResidentPair;
  loadedAtRest: ResidentPair;
}

/** Each load run of the way to the total; short enough to stop near it. */
const CHUNK_SECONDS = 20;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export async function measureMemoryAfterCharges(
  charges: number,
  connections: number,
  restSeconds: number,
): Promise<MemoryAfterCharges> {
  const stack = await Stack.start({ apiEnv: { RATE_LIMIT_MAX: '1000000' } });
  try {
    const serials = await createInstantTerminals(stack.client(), connections);
    const pids = { api: stack.api.pid, simulator: stack.simulator?.pid };
    const atRest = async (): Promise<ResidentPair> => {
      await sleep(restSeconds * 1000);
      return { api: ofPid(pids.api, residentMiB), simulator: ofPid(pids.simulator, residentMiB) };
    };
    const idle = await sampleResident(pids);
    const idleAtRest = await atRest();
    let carried = 0;
    while (carried < charges) {
      const result = await runLoad({
        url: stack.apiUrl,
        connections,
        durationSeconds: CHUNK_SECONDS,
        request: (c) => signedCharge(serials[c]),
      });
      if (result.ok === 0) throw new Error(`no charge carried: ${JSON.stringify(result.statusCodes)}`);
      carried += result.ok;
    }
    const loaded = await sampleResident(pids);
    const loadedAtRest = await atRest();
    return { charges: carried, restSeconds, idle, idleAtRest, loaded, loadedAtRest };
  } finally {
    await stack.stop();
  }
}
