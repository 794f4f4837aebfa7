/** How the apps write their log lines (README, "Logs"). */
export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVELS)[number];

export interface LogSettings {
  format: LogFormat;
  level: LogLevelName;
}

/** JSON at info: what a process writes until it has read its settings. */
export const DEFAULT_LOG_SETTINGS: LogSettings = { format: 'json', level: 'info' };

function oneOf<T extends string>(name: string, allowed: readonly T[], value: unknown, fallback: T): T {
  if (value === undefined || value === '') return fallback;
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new Error(`invalid log configuration: ${name} must be one of ${allowed.join(', ')}`);
}

/**
 * Read before anything else of the configuration, so that even a refused configuration is
 * reported in the chosen format.
 */
export function logSettingsFrom(env: Record<string, string | undefined>): LogSettings {
  return {
    format: oneOf('LOG_FORMAT', LOG_FORMATS, env.LOG_FORMAT, DEFAULT_LOG_SETTINGS.format),
    level: oneOf('LOG_LEVEL', LOG_LEVELS, env.LOG_LEVEL, DEFAULT_LOG_SETTINGS.level),
  };
}
