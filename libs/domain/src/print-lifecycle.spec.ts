import {
  PRINT_JOB_STATUSES,
  PrintTransitionRefusedError,
  finishesPrintJob,
  isFinalPrintJobStatus,
  printJobPath,
  transitionPrintJob,
} from './print-lifecycle';

describe('print job lifecycle', () => {
  it('allows exactly PENDING → IN_PROGRESS → COMPLETED | FAILED', () => {
    const allowed: string[] = [];
    for (const from of PRINT_JOB_STATUSES) {
      for (const to of PRINT_JOB_STATUSES) {
        try {
          transitionPrintJob(from, to);
          allowed.push(`${from}>${to}`);
        } catch (error) {
          expect(error).toBeInstanceOf(PrintTransitionRefusedError);
        }
      }
    }
    expect(allowed.sort()).toEqual(['IN_PROGRESS>COMPLETED', 'IN_PROGRESS>FAILED', 'PENDING>IN_PROGRESS']);
  });

  it('refuses an unknown status', () => {
    expect(() => transitionPrintJob('PENDING', 'PRINTED')).toThrow(PrintTransitionRefusedError);
  });

  it('walks a report that skipped a step, edge by edge', () => {
    expect(printJobPath('PENDING', 'COMPLETED')).toEqual(['IN_PROGRESS', 'COMPLETED']);
    expect(printJobPath('PENDING', 'FAILED')).toEqual(['IN_PROGRESS', 'FAILED']);
    expect(printJobPath('IN_PROGRESS', 'FAILED')).toEqual(['FAILED']);
    expect(printJobPath('COMPLETED', 'COMPLETED')).toEqual([]);
  });

  it('never walks backwards or out of a final status', () => {
    expect(() => printJobPath('COMPLETED', 'FAILED')).toThrow(PrintTransitionRefusedError);
    expect(() => printJobPath('IN_PROGRESS', 'PENDING')).toThrow(PrintTransitionRefusedError);
    expect(() => printJobPath('PENDING', 'nonsense')).toThrow(PrintTransitionRefusedError);
  });

  it('knows the final statuses', () => {
    expect(PRINT_JOB_STATUSES.filter(isFinalPrintJobStatus)).toEqual(['COMPLETED', 'FAILED']);
  });

  it('finishes a job only on the step into a final status, so its webhook is due once', () => {
    const finishing: string[] = [];
    for (const from of PRINT_JOB_STATUSES) {
      for (const to of PRINT_JOB_STATUSES) if (finishesPrintJob(from, to)) finishing.push(`${from}>${to}`);
    }
    expect(finishing.sort()).toEqual([
      'IN_PROGRESS>COMPLETED',
      'IN_PROGRESS>FAILED',
      'PENDING>COMPLETED',
      'PENDING>FAILED',
    ]);
  });
});
