import { INITIAL_STATE, reduce } from './store';
import type { PrintJob } from './types';

function job(status: PrintJob['status'], printJobId = 'job-1'): PrintJob {
  return {
    printJobId,
    status,
    terminalSerial: 'SIM0000002',
    externalReference: 'console-1',
    createdAt: '2026-11-24T10:00:00.000Z',
    updatedAt: '2026-11-24T10:00:00.000Z',
    ...(status === 'COMPLETED' ? { printedText: 'APPROVED' } : {}),
  };
}

describe('console store: print jobs', () => {
  it('keeps a printed job when the answer to its POST arrives after the live stream told it printed', () => {
    const printed = reduce(INITIAL_STATE, { type: 'print', job: job('COMPLETED') });
    const late = reduce(printed, { type: 'print', job: job('PENDING') });
    expect(late.printJobs).toEqual([job('COMPLETED')]);
  });

  it('moves a job forward and shows the newest job first', () => {
    let state = reduce(INITIAL_STATE, { type: 'print', job: job('PENDING') });
    state = reduce(state, { type: 'print', job: job('PENDING', 'job-2') });
    state = reduce(state, { type: 'print', job: job('IN_PROGRESS') });
    state = reduce(state, { type: 'print', job: job('FAILED') });
    expect(state.printJobs.map((j) => [j.printJobId, j.status])).toEqual([
      ['job-1', 'FAILED'],
      ['job-2', 'PENDING'],
    ]);
  });
});
