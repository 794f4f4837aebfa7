import {
  LIFECYCLE_STATUSES,
  TransitionRefusedError,
  canTransition,
  isAbortable,
  isFinalStatus,
  transition,
  type LifecycleStatus,
} from './lifecycle';

/** The specification's table, written out independently of the implementation's data. */
const SPEC_EDGES = new Set([
  'TERMINAL_ACKNOWLEDGED>CARD_PRESENTED',
  'TERMINAL_ACKNOWLEDGED>TERMINAL_CANCELED',
  'TERMINAL_ACKNOWLEDGED>TERMINAL_REJECTED',
  'CARD_PRESENTED>APPROVAL_REQUESTED',
  'CARD_PRESENTED>CARD_PRESENTED',
  'CARD_PRESENTED>TERMINAL_CANCELED',
  'APPROVAL_REQUESTED>APPROVAL',
  'APPROVAL_REQUESTED>DECLINED',
]);

describe('lifecycle transition', () => {
  const pairs: Array<[LifecycleStatus, LifecycleStatus]> = LIFECYCLE_STATUSES.flatMap((from) =>
    LIFECYCLE_STATUSES.map((to): [LifecycleStatus, LifecycleStatus] => [from, to]),
  );

  it('covers all 49 (from, to) pairs', () => {
    expect(pairs).toHaveLength(49);
  });

  it.each(pairs)('%s -> %s follows the specification', (from, to) => {
    if (SPEC_EDGES.has(`${from}>${to}`)) {
      expect(transition(from, to)).toBe(to);
      expect(canTransition(from, to)).toBe(true);
    } else {
      expect(() => transition(from, to)).toThrow(TransitionRefusedError);
      expect(canTransition(from, to)).toBe(false);
    }
  });

  it('starts only at TERMINAL_ACKNOWLEDGED', () => {
    for (const to of LIFECYCLE_STATUSES) {
      if (to === 'TERMINAL_ACKNOWLEDGED') expect(transition(null, to)).toBe(to);
      else expect(() => transition(null, to)).toThrow(TransitionRefusedError);
    }
  });

  it('refuses a status that is not one of the seven', () => {
    expect(() => transition('TERMINAL_ACKNOWLEDGED', 'SETTLED')).toThrow(/not in the specification/);
  });

  it('knows the final states and the point of no return', () => {
    expect(LIFECYCLE_STATUSES.filter(isFinalStatus)).toEqual([
      'TERMINAL_CANCELED',
      'TERMINAL_REJECTED',
      'DECLINED',
      'APPROVAL',
    ]);
    expect(LIFECYCLE_STATUSES.filter(isAbortable)).toEqual(['TERMINAL_ACKNOWLEDGED', 'CARD_PRESENTED']);
  });
});
