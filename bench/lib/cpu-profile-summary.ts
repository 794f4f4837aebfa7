/** The parts of a V8 `.cpuprofile` (as `node --cpu-prof` writes it) that a summary needs. */
export interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string };
    children?: number[];
  }>;
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Share {
  name: string;
  /** Share of the window's samples, 0…1. */
  share: number;
}

export interface ProfileSummary {
  windowMs: number;
  /** Self time by npm package, by our own lib or app, or by V8 category ((idle), (program)…). */
  byOwner: Share[];
  /** Inclusive time of our own functions (apps/, libs/), the call paths worth reading first. */
  ours: Share[];
}

const PACKAGE = /node_modules\/((?:@[^/]+\/)?[^/]+)/;
const OURS = /\/dist\/((?:apps|libs)\/[^/]+)\/src\//;

function ownerOf(url: string, functionName: string): string {
  const dependency = PACKAGE.exec(url);
  if (dependency) return dependency[1];
  const ours = OURS.exec(url);
  if (ours) return ours[1];
  if (url.startsWith('node:')) return 'node core';
  return url === '' ? functionName || '(anonymous)' : url;
}

function top(counts: Map<string, number>, total: number, limit: number): Share[] {
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, time]) => ({ name, share: time / total }));
}

/**
 * Where the samples of a window went. The window is given in ms back from the profile's end, so
 * the load of a benchmark can be cut out without start-up and shutdown.
 */
export function summarize(
  profile: CpuProfile,
  window: { fromEndMs: number; toEndMs: number },
  limit = 12,
): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const from = profile.endTime - window.fromEndMs * 1000;
  const to = profile.endTime - window.toEndMs * 1000;
  const selfByOwner = new Map<string, number>();
  const inclusiveOurs = new Map<string, number>();
  let total = 0;
  let at = profile.startTime;
  profile.samples.forEach((sampled, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from || at > to) return;
    total += delta;
    const leaf = byId.get(sampled);
    if (leaf === undefined) return;
    const owner = ownerOf(leaf.callFrame.url, leaf.callFrame.functionName);
    selfByOwner.set(owner, (selfByOwner.get(owner) ?? 0) + delta);
    const seen = new Set<string>();
    for (let id: number | undefined = sampled; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)?.callFrame;
      const ours = frame === undefined ? null : OURS.exec(frame.url);
      if (frame === undefined || ours === null) continue;
      const name = `${frame.functionName || '(anonymous)'} (${frame.url.slice(frame.url.indexOf(ours[1]))})`;
      if (seen.has(name)) continue;
      seen.add(name);
      inclusiveOurs.set(name, (inclusiveOurs.get(name) ?? 0) + delta);
    }
  });
  return {
    windowMs: total / 1000,
    byOwner: top(selfByOwner, total, limit),
    ours: top(inclusiveOurs, total, limit),
  };
}
