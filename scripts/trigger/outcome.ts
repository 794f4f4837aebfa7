import type { Expected } from './scenarios';

/** What a run showed, in the terms of {@link Expected}. */
export interface Observation {
  /** A final lifecycle state, NOT_TAKEN, or what else came back (e.g. `HTTP 400 PAR-002`). */
  status: string;
  /** Absent when the source does not carry it: transaction search has no `failure_reason` (§7). */
  code?: string;
  readingType?: string;
  cardType?: string;
  cardPresentations?: number;
}

interface ErrorBody {
  type?: string;
  code?: string;
}

/** Reads a sync charge's answer (contract §3): 200 approved or declined, 409 terminal, 503 not taken. */
export function syncOutcome(httpStatus: number, body: unknown): Observation {
  const answer = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (httpStatus === 200 && typeof answer.approved === 'boolean') {
    return { status: answer.approved ? 'APPROVAL' : 'DECLINED', code: String(answer.responseCode) };
  }
  return errorOutcome(httpStatus, answer);
}

/** Reads an async charge's acknowledgement: null when it was taken (200, TERMINAL_ACKNOWLEDGED). */
export function acknowledgementOutcome(httpStatus: number, body: unknown): Observation | null {
  const answer = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (httpStatus === 200 && answer.status === 'TERMINAL_ACKNOWLEDGED') return null;
  return errorOutcome(httpStatus, answer);
}

function errorOutcome(httpStatus: number, answer: ErrorBody): Observation {
  if (httpStatus === 409 && answer.type === 'TERMINAL' && answer.code !== undefined) {
    const status = answer.code === 'TER-104' ? 'TERMINAL_CANCELED' : 'TERMINAL_REJECTED';
    return { status, code: answer.code };
  }
  if (httpStatus === 503 && answer.code === 'TER-001') return { status: 'NOT_TAKEN', code: 'TER-001' };
  return { status: `HTTP ${httpStatus} ${answer.code ?? ''}`.trim() };
}

const LABELS: Record<keyof Expected, string> = {
  status: 'status',
  code: 'code',
  readingType: 'reading type',
  cardType: 'card type',
  cardPresentations: 'card presentations',
};

/**
 * Where the run differs from the scenario's name; empty when it behaved as named. The code is
 * compared where the source carries one; everything else expected must have been observed.
 */
export function differences(expected: Expected, observed: Observation): string[] {
  const found: string[] = [];
  for (const key of Object.keys(expected) as Array<keyof Expected>) {
    const want = expected[key];
    const got = observed[key];
    if (key === 'code' && got === undefined) continue;
    if (got !== want) found.push(`${LABELS[key]}: expected ${String(want)}, got ${String(got ?? 'nothing')}`);
  }
  return found;
}
