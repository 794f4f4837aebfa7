/**
 * The seven-state payment lifecycle of the specification, and the only place where a state
 * changes: every event, on the terminal and in the service, passes `transition`.
 */
export const LIFECYCLE_STATUSES = [
  'TERMINAL_ACKNOWLEDGED',
  'TERMINAL_CANCELED',
  'CARD_PRESENTED',
  'TERMINAL_REJECTED',
  'APPROVAL_REQUESTED',
  'DECLINED',
  'APPROVAL',
] as const;

export type LifecycleStatus = (typeof LIFECYCLE_STATUSES)[number];

/** The specification's transition table, as data. `null` is "no state yet". */
export const LIFECYCLE_TRANSITIONS: ReadonlyMap<LifecycleStatus | null, readonly LifecycleStatus[]> = new Map<
  LifecycleStatus | null,
  readonly LifecycleStatus[]
>([
  [null, ['TERMINAL_ACKNOWLEDGED']],
  ['TERMINAL_ACKNOWLEDGED', ['CARD_PRESENTED', 'TERMINAL_CANCELED', 'TERMINAL_REJECTED']],
  ['CARD_PRESENTED', ['APPROVAL_REQUESTED', 'CARD_PRESENTED', 'TERMINAL_CANCELED']],
  ['APPROVAL_REQUESTED', ['APPROVAL', 'DECLINED']],
  ['TERMINAL_CANCELED', []],
  ['TERMINAL_REJECTED', []],
  ['DECLINED', []],
  ['APPROVAL', []],
]);

export const FINAL_STATUSES: readonly LifecycleStatus[] = [
  'TERMINAL_CANCELED',
  'TERMINAL_REJECTED',
  'DECLINED',
  'APPROVAL',
];

export class TransitionRefusedError extends Error {
  constructor(
    readonly from: LifecycleStatus | null,
    readonly to: string,
  ) {
    super(`lifecycle transition ${from ?? '(none)'} -> ${to} is not in the specification's table`);
    this.name = 'TransitionRefusedError';
  }
}

export function isLifecycleStatus(value: unknown): value is LifecycleStatus {
  return typeof value === 'string' && (LIFECYCLE_STATUSES as readonly string[]).includes(value);
}

export function canTransition(from: LifecycleStatus | null, to: LifecycleStatus): boolean {
  return LIFECYCLE_TRANSITIONS.get(from)?.includes(to) ?? false;
}

/** Applies one transition; returns the new state or throws `TransitionRefusedError`. */
export function transition(from: LifecycleStatus | null, to: string): LifecycleStatus {
  if (!isLifecycleStatus(to) || !canTransition(from, to)) {
    throw new TransitionRefusedError(from, to);
  }
  return to;
}

export function isFinalStatus(status: LifecycleStatus | null): boolean {
  return status !== null && FINAL_STATUSES.includes(status);
}

/** APPROVAL_REQUESTED is the point of no return: from there an abort can no longer cancel. */
export function isAbortable(status: LifecycleStatus | null): boolean {
  return status === 'TERMINAL_ACKNOWLEDGED' || status === 'CARD_PRESENTED';
}
