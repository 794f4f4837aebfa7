import { catchesSignal, newestStatementCount } from './sql-statements';

const status = (sigCgt: string): string =>
  `Name:\tnode\nSigBlk:\t0000000000000000\nSigIgn:\t0000000001001000\nSigCgt:\t${sigCgt}\nCapInh:\t0\n`;

describe('catchesSignal', () => {
  it('reads the bit of the signal in SigCgt', () => {
    // A plain node process, then one with process.on('SIGUSR2'): bit 11 for signal 12.
    expect(catchesSignal(status('0000000100004602'), 12)).toBe(false);
    expect(catchesSignal(status('0000000100004e02'), 12)).toBe(true);
    expect(catchesSignal(status('0000000100004e02'), 2)).toBe(true);
  });

  it('says no when the status has no SigCgt line', () => {
    expect(catchesSignal('Name:\tnode\n', 12)).toBe(false);
  });
});

describe('newestStatementCount', () => {
  it('takes the newest complete line', () => {
    const output = 'listening on port 1\nsql statements: 10\n[Nest] log\nsql statements: 250\n';
    expect(newestStatementCount(output)).toBe(250);
  });

  it('ignores a line still being written and text that only looks like one', () => {
    expect(newestStatementCount('sql statements: 10\nsql statements: 2')).toBe(10);
    expect(newestStatementCount('log: sql statements: 7\n')).toBeUndefined();
    expect(newestStatementCount('')).toBeUndefined();
  });
});
