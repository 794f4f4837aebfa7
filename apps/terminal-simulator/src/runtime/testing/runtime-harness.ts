import { randomUUID } from 'node:crypto';
import type { OperationMode, OperationType, TerminalPace } from '@tps/domain';
import type { OperationOrder, TerminalProfile } from '@tps/link';
import { TerminalRuntime } from '../terminal-runtime';
import { InMemoryStore } from './in-memory-store';
import { ManualTimers } from './manual-timers';

export function profile(pace: TerminalPace = 'instant'): TerminalProfile {
  return {
    serialNumber: 'SIMUNIT001',
    merchantId: 'demo-merchant',
    model: 'SIM-A920',
    wifiMac: '02:00:00:00:00:01',
    room: 'lab',
    pace,
    printer: 'ok',
    offline: false,
  };
}

/** An order whose total ends in `ending` (the scenario of contract §10). */
export function order(
  ending: string,
  mode: OperationMode = 'async',
  type: OperationType = 'charge',
): OperationOrder {
  return {
    type,
    mode,
    form: 'cloud',
    merchantId: 'demo-merchant',
    clientTransactionId: randomUUID(),
    amount: {
      iva: 1600,
      subtotalIva: 10000 + Number(ending),
      subtotalIva0: 0,
      extraTaxes: { airportTax: 0, iac: 0, ice: 0, travelAgency: 0 },
    },
    metadata: {},
    eventsWebhookUrl: '',
    clockOffsetMs: 0,
  };
}

export function abortOrder(mode: OperationMode, target?: string): OperationOrder {
  const base = order('00', mode, 'abort');
  return {
    ...base,
    amount: { iva: 0, subtotalIva: 0, subtotalIva0: 0, extraTaxes: base.amount.extraTaxes },
    ...(target === undefined ? {} : { targetClientTransactionId: target }),
  };
}

/** A runtime over an in-memory store and a virtual clock; errors it reports are collected. */
export function harness(
  pace: TerminalPace = 'instant',
  store = new InMemoryStore(),
  timers = new ManualTimers(),
) {
  const errors: unknown[] = [];
  let flushes = 0;
  const link = { flush: () => void flushes++, isUp: true };
  const runtime = new TerminalRuntime(profile(pace), store, link, (error) => errors.push(error), {
    timers,
    scenarioWaitScale: 1,
  });
  return { runtime, store, timers, errors, link, flushes: () => flushes };
}
