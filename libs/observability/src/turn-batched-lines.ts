import pino, { type DestinationStream } from 'pino';

/** Past this many characters waiting, they are written at once rather than at the turn's end. */
const MOST_WAITING = 64 * 1024;

/**
 * Log lines written once per turn of the event loop instead of once per line: a request and its
 * payment outcome are two lines, and a write to a pipe costs more than formatting both. The
 * lines of the turn in progress are written before the process exits; a SIGKILL loses them.
 */
export class TurnBatchedLines implements DestinationStream {
  private waiting = '';
  private scheduled = false;

  constructor(private readonly target: { write(text: string): unknown }) {}

  write(line: string): void {
    this.waiting += line;
    if (this.waiting.length >= MOST_WAITING) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flushScheduled);
    }
  }

  /** Writes what waits, now. */
  flush(): void {
    if (this.waiting === '') return;
    const text = this.waiting;
    this.waiting = '';
    this.target.write(text);
  }

  private readonly flushScheduled = (): void => {
    this.scheduled = false;
    this.flush();
  };
}

let stdout: TurnBatchedLines | undefined;

/** The process's stdout as log lines: one destination however many loggers write to it. */
export function stdoutLines(): TurnBatchedLines {
  if (stdout === undefined) {
    const lines = new TurnBatchedLines(pino.destination({ dest: 1, sync: true }));
    process.once('exit', () => lines.flush());
    stdout = lines;
  }
  return stdout;
}
