import { HaproxyBalancer } from '@tps/testing';
import { startPair } from './cluster-charges';
import { CpuMeter } from './lib/cpu-meter';
import { refusedOf, runLoad } from './lib/load';
import { signedCharge } from './sync-charge-comparison';

/** One closed-loop phase of sync charges through the balancer. */
export interface BalancerPhase {
  seconds: number;
  charges: number;
  /** Answers that were not 200, by status, and requests that failed. */
  refused: Record<string, number>;
  errors: number;
  /** HAProxy's CPU during the phase, ms. */
  cpuMs: number;
  p50: number;
  p99: number;
}

/** What the compose profile's balancer costs: its CPU per charge, and while idle. */
export interface BalancerCost {
  terminals: number;
  warmupSeconds: number;
  measured: BalancerPhase[];
  /** HAProxy's CPU with no request (its health checks), ms per second. */
  idleMsPerSecond: number;
}

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
/** Long enough for the charges a cut-off phase left in flight to end. */
const SETTLE_MS = 2000;

/**
 * Sync charges in a closed loop through HAProxy running the compose profile's configuration
 * (deploy/haproxy-cluster.cfg, its request log on), in front of two replicas on one database, the
 * terminals linked to the first (directly): the balancer sends each terminal's charges to the
 * replica its serial hashes to, so some are local and the rest routed. The replicas do what they
 * do without it; what the balancer adds is its own CPU, read from /proc.
 */
export async function measureBalancer(
  terminals: number,
  seconds: number,
  reps: number,
  warmupSeconds: number,
): Promise<BalancerCost> {
  const { stack, serials } = await startPair(undefined, terminals);
  let balancer: HaproxyBalancer | undefined;
  try {
    balancer = await HaproxyBalancer.start(
      stack.dir,
      stack.replicas.map((replica) => replica.port),
    );
    await balancer.waitFor('api-1', 'UP');
    await balancer.waitFor('api-2', 'UP');
    const meter = await CpuMeter.start({ balancer: balancer.pid });
    const url = balancer.url;
    try {
      const phase = async (phaseSeconds: number): Promise<BalancerPhase> => {
        await settle(SETTLE_MS);
        const before = await meter.reading();
        const startedAt = Date.now();
        const result = await runLoad({
          url,
          connections: serials.length,
          durationSeconds: phaseSeconds,
          request: (c) => signedCharge(serials[c]),
        });
        const cpuMs = (await meter.reading()).balancer - before.balancer;
        return {
          seconds: (Date.now() - startedAt) / 1000,
          charges: result.ok,
          refused: refusedOf(result),
          errors: result.errors,
          cpuMs,
          p50: result.p50,
          p99: result.p99,
        };
      };
      if (warmupSeconds > 0) await phase(warmupSeconds);
      const measured: BalancerPhase[] = [];
      for (let i = 0; i < reps; i++) measured.push(await phase(seconds));
      await settle(SETTLE_MS);
      const idleBefore = await meter.reading();
      const idleStarted = Date.now();
      await settle(seconds * 1000);
      const idleMs = (await meter.reading()).balancer - idleBefore.balancer;
      return {
        terminals,
        warmupSeconds,
        measured,
        idleMsPerSecond: idleMs / ((Date.now() - idleStarted) / 1000),
      };
    } finally {
      meter.stop();
    }
  } finally {
    await balancer?.stop();
    await stack.stop();
  }
}
