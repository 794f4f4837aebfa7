import { Stack, createInstantTerminals } from '@tps/testing';
import { INSPECT_LOOPBACK, collectedResidentMiB } from './lib/collected-resident';
import { runLoad } from './lib/load';
import { sampleResident, type ResidentPair } from './lib/resident-memory';
import { signedCharge } from './sync-charge-comparison';

/**
 * The memory target read as written, "memory after 100,000 transactions": the same two
 * processes idle, then after carrying that many sync charges. Each time sampled a second after
 * the last request, as V8 left it, and again once a full garbage collection has run: a second
 * after a load, the heap still holds the garbage of the last seconds, which V8 gives back only
 * when the process has been quiet for a while (its memory reducer), sooner in one process than
 * in another. Collected, what is left is what the processes keep.
 */
export interface MemoryAfterCharges {
  /** Charges carried (2xx) between the idle and the loaded samples. */
  charges: number;
  idle: ResidentPair;
  idleCollected: ResidentPair;
  loaded: ResidentPair;
  loadedCollected: ResidentPair;
}

/** Each load run of the way to the total; short enough to stop near it. */
const CHUNK_SECONDS = 20;

export async function measureMemoryAfterCharges(
  charges: number,
  connections: number,
): Promise<MemoryAfterCharges> {
  const stack = await Stack.start({ apiEnv: { RATE_LIMIT_MAX: '1000000' }, nodeArgs: [INSPECT_LOOPBACK] });
  try {
    const { api, simulator } = stack;
    if (simulator === undefined) throw new Error('the simulator did not start');
    const serials = await createInstantTerminals(stack.client(), connections);
    const pids = { api: api.pid, simulator: simulator.pid };
    const collected = async (): Promise<ResidentPair> => ({
      api: await collectedResidentMiB(api),
      simulator: await collectedResidentMiB(simulator),
    });
    const idle = await sampleResident(pids);
    const idleCollected = await collected();
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
    const loadedCollected = await collected();
    return { charges: carried, idle, idleCollected, loaded, loadedCollected };
  } finally {
    await stack.stop();
  }
}
