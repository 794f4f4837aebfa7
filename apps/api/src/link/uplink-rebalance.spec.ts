import { RELINK_CLOSE_CODE } from '@tps/link';
import type { ApiConfig } from '../config/api-config';
import type { ApiMetrics } from '../metrics/api-metrics';
import type { BackgroundTasks } from '../metrics/background-tasks';
import type { LinkRouting } from '../routing/link-routing';
import type { TerminalLinks } from './terminal-links';
import { UplinkRebalance } from './uplink-rebalance';

// Nest ships as ES modules, which Jest does not load; the decorators only matter to DI.
jest.mock('@nestjs/common', () => ({
  Injectable: () => () => undefined,
  Inject: () => () => undefined,
  Logger: class {
    log(): void {}
  },
}));
// The collaborators are the fakes below; their modules (and what they load) are not needed.
jest.mock('./terminal-links', () => ({ TerminalLinks: class {} }));
jest.mock('../metrics/background-tasks', () => ({ BackgroundTasks: class {} }));
jest.mock('../metrics/api-metrics', () => ({ ApiMetrics: class {} }));
jest.mock('../config/api-config', () => ({ ApiConfig: class {} }));

/**
 * A replica holding one idle terminal whose requests mostly came handed over; what it did, in
 * order. `requestDuringLetGo`: a request reaches the terminal after it was chosen.
 */
function replica(requestDuringLetGo = false) {
  const done: string[] = [];
  let busy = false;
  let turn: () => Promise<void> = () => Promise.resolve();
  const links = {
    isHandingBack: false,
    arrivals: { mostlyRouted: () => ['SIM1'] },
    upHere: () => true,
    busyUplink: () => busy,
    closeUplink: (serial: string, code: number) => done.push(`close ${serial} ${code}`),
  };
  const routing = {
    linksMove: true,
    letGo: (serials: readonly string[]) => {
      done.push(`let go ${serials.join()}`);
      busy = requestDuringLetGo;
      return Promise.resolve();
    },
    uplinkOpened: (serial: string) => done.push(`held again ${serial}`),
  };
  const tasks = {
    every: ({ run }: { run: () => Promise<void> }) => {
      turn = run;
      return { start: () => ({ stop: () => Promise.resolve() }) };
    },
  };
  const rebalance = new UplinkRebalance(
    { LINK_REBALANCE_PER_SECOND: 4 } as ApiConfig,
    links as unknown as TerminalLinks,
    { uplinkRelinked: () => done.push('counted') } as unknown as ApiMetrics,
    routing as unknown as LinkRouting,
    tasks as unknown as BackgroundTasks,
  );
  rebalance.onApplicationBootstrap();
  return {
    done,
    turn: () => turn(),
    setBusy: (value: boolean) => (busy = value),
    drain: () => (links.isHandingBack = true),
  };
}

describe('UplinkRebalance', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('lets an idle terminal go, then asks it to link again', async () => {
    const { done, turn } = replica();
    await turn();
    expect(done).toEqual(['let go SIM1', `close SIM1 ${RELINK_CLOSE_CODE}`, 'counted']);
  });

  it('waits for a request that reached the terminal meanwhile to end before closing its link', async () => {
    const { done, turn, setBusy } = replica(true);
    const step = turn();
    await jest.advanceTimersByTimeAsync(2_000);
    expect(done).toEqual(['let go SIM1']);
    setBusy(false);
    await jest.advanceTimersByTimeAsync(100);
    await step;
    expect(done).toEqual(['let go SIM1', `close SIM1 ${RELINK_CLOSE_CODE}`, 'counted']);
  });

  it('keeps the link of a terminal still busy after the wait (a cardholder may take minutes): its caller gets its outcome', async () => {
    const { done, turn, setBusy } = replica(true);
    const step = turn();
    await jest.advanceTimersByTimeAsync(11_000);
    await step;
    expect(done).toEqual(['let go SIM1', 'held again SIM1']);
    // Not asked again at once.
    setBusy(false);
    await turn();
    expect(done).toEqual(['let go SIM1', 'held again SIM1']);
  });

  it('leaves a busy terminal to a drain begun during the wait: not stored as held here again, not closed', async () => {
    const { done, turn, drain } = replica(true);
    const step = turn();
    await jest.advanceTimersByTimeAsync(5_000);
    drain();
    await jest.advanceTimersByTimeAsync(6_000);
    await step;
    expect(done).toEqual(['let go SIM1']);
  });
});
