export * from './log-settings';
export * from './log-root';
export * from './nest-logger';
export * from './redaction';
