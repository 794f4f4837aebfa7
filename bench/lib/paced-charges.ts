import { percentile } from './stats';

export interface PacedOptions {
  ratePerSecond: number;
  seconds: number;
  /** The terminals; a charge starts on one that is not busy with the one before. */
  serials: string[];
  /** Sends charge number `tick` to `serial`; resolves with the answer's status. */
  send: (serial: string, tick: number) => Promise<number>;
}

/** One charge started: its tick, its answer's status ('failed': none came) and its latency. */
export interface PacedCharge {
  tick: number;
  status: number | 'failed';
  ms: number;
}

export interface PacedRun {
  charges: PacedCharge[];
  /** Ticks at which every terminal was still busy: no charge started. */
  skipped: number;
}

/** What the charges of a run (or of a part of it) came to. */
export interface PacedSummary {
  /** Charges answered 200. */
  charges: number;
  /** Of those, p50 and p99 in ms. */
  p50: number;
  p99: number;
  /** Answers that were not 200, by status ('failed': no answer at all). */
  refused: Record<string, number>;
}

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Charges started at a fixed rate, whatever the answers' pace (an open loop, as points of sale
 * are): each on a terminal not busy with its last one, since a terminal runs one operation at a
 * time. Settles once every charge started has its answer.
 */
export async function runPaced(options: PacedOptions): Promise<PacedRun> {
  const charges: PacedCharge[] = [];
  const busy = new Set<string>();
  const inFlight: Array<Promise<void>> = [];
  let skipped = 0;
  const startedAt = Date.now();
  const deadline = startedAt + options.seconds * 1000;
  for (let tick = 0; Date.now() < deadline; tick++) {
    await settle(Math.max(0, startedAt + (tick * 1000) / options.ratePerSecond - Date.now()));
    const serial = options.serials.find((s) => !busy.has(s));
    if (serial === undefined) {
      skipped++;
      continue;
    }
    busy.add(serial);
    const sent = performance.now();
    const answered = (status: number | 'failed') =>
      void charges.push({ tick, status, ms: performance.now() - sent });
    inFlight.push(
      options
        .send(serial, tick)
        .then(answered, () => answered('failed'))
        .finally(() => busy.delete(serial)),
    );
  }
  await Promise.all(inFlight);
  return { charges, skipped };
}

export function summaryOf(charges: PacedCharge[]): PacedSummary {
  const latencies = charges.filter((c) => c.status === 200).map((c) => c.ms);
  const refused: Record<string, number> = {};
  for (const { status } of charges) if (status !== 200) refused[status] = (refused[status] ?? 0) + 1;
  return {
    charges: latencies.length,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    refused,
  };
}
