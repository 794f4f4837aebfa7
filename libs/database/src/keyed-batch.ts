/**
 * A write in a batch: `keys` name what it reads and changes (a transaction, a delivery). A write
 * without keys may touch anything.
 */
export interface KeyedWork<T> {
  keys?: readonly string[];
  work: () => Promise<T>;
}

/**
 * Whether writes of the batch may run at the same time: two with keys and no write without keys
 * between them (whatever their keys: a guard too many costs two statements, one too few a torn
 * batch).
 */
export function overlaps(batch: ReadonlyArray<{ keys?: readonly string[] }>): boolean {
  let keyed = 0;
  for (const { keys } of batch) {
    keyed = keys === undefined ? 0 : keyed + 1;
    if (keyed > 1) return true;
  }
  return false;
}

/**
 * Runs a batch's writes as if one after another, in the order given, but lets the writes with
 * keys run at the same time as those that share no key with them: each waits only for the
 * earlier writes with a key of its own, and for the last write without keys, which waits for
 * everything before it. A write whose predecessor failed does not run, unless the writes are
 * `independent` (each its own transaction: one failing undoes nothing of the next). Settles once
 * every write has settled, so nothing of the batch is still running when it ends.
 */
export async function runKeyed<T>(
  batch: ReadonlyArray<KeyedWork<T>>,
  independent = false,
): Promise<Array<PromiseSettledResult<T>>> {
  const lastOfKey = new Map<string, Promise<unknown>>();
  let barrier: Promise<unknown> = Promise.resolve();
  let sinceBarrier: Array<Promise<unknown>> = [];
  const runs = batch.map(({ keys, work }) => {
    const after =
      keys === undefined
        ? [barrier, ...sinceBarrier]
        : [barrier, ...keys.flatMap((key) => lastOfKey.get(key) ?? [])];
    const run = Promise.all(
      independent ? after.map((earlier) => earlier.catch(() => undefined)) : after,
    ).then(work);
    if (keys === undefined) {
      barrier = run;
      sinceBarrier = [];
    } else {
      sinceBarrier.push(run);
      for (const key of keys) lastOfKey.set(key, run);
    }
    return run;
  });
  return Promise.allSettled(runs);
}
