import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogSettings } from './log-settings';
import { redactSensitive } from './redaction';
import { stdoutLines } from './turn-batched-lines';

/** The fields every line of one process carries. */
export interface LogBase {
  app: string;
  /** This process among several (for the API, the `replica` label of the metrics). */
  replica?: string;
  [field: string]: string | undefined;
}

/**
 * The process's one logger: a JSON object per line on stdout, or pino-pretty's lines for a
 * terminal. Times are ISO 8601 (never a run of 13 digits that a card-number scan would flag).
 */
export function createLogRoot(
  settings: LogSettings,
  base: LogBase,
  destination: DestinationStream = settings.format === 'pretty'
    ? pretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
    : stdoutLines(),
): Logger {
  return pino(
    {
      level: settings.level,
      base: { ...base },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }), log: redactSensitive },
    },
    destination,
  );
}
