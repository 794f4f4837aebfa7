import type { LoggerService } from '@nestjs/common';
import type { Level, Logger } from 'pino';

/**
 * Nest's own start-up chatter (modules loaded, each route mapped): a hundred lines per start that
 * say nothing an operator acts on, so written at debug.
 */
const FRAMEWORK_CONTEXTS = new Set([
  'NestFactory',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestApplication',
]);

type Fields = Record<string, unknown>;

function isFields(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !(value instanceof Error) && !Array.isArray(value);
}

/**
 * Nest's LoggerService on top of pino: `new Logger('Payments').log(...)` anywhere in the apps
 * writes one JSON line with `context`. A message may be a string or an object of fields (its
 * `msg`, if any, is the line's message), so that a line carries ids an operator filters on.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly root: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    const context = this.contextOf(params);
    this.write(context !== undefined && FRAMEWORK_CONTEXTS.has(context) ? 'debug' : 'info', message, context);
  }

  error(message: unknown, ...params: unknown[]): void {
    // Nest passes (message, stack, context); a lone string after the message is the context.
    const context = this.contextOf(params);
    const stack = params.length >= 2 && typeof params[0] === 'string' ? params[0] : undefined;
    this.write('error', message, context, stack);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, this.contextOf(params));
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, this.contextOf(params));
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, this.contextOf(params));
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, this.contextOf(params));
  }

  private contextOf(params: unknown[]): string | undefined {
    const last = params.at(-1);
    return typeof last === 'string' ? last : undefined;
  }

  private write(level: Level, message: unknown, context: string | undefined, stack?: string): void {
    if (!this.root.isLevelEnabled(level)) return;
    // One object per line, built in place: this runs twice per charge (request and outcome).
    const line: Fields = context === undefined ? {} : { context };
    if (stack !== undefined) line.stack = stack;
    if (isFields(message)) {
      Object.assign(line, message);
      if (typeof line.msg !== 'string') delete line.msg;
      this.root[level](line);
    } else if (message instanceof Error) {
      line.err = message;
      this.root[level](line, message.message);
    } else {
      this.root[level](line, String(message));
    }
  }
}
