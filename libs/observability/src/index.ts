export * from './log-settings';
export * from './log-root';
export * from './nest-logger';
export * from './redaction';
export * from './tracing';
export * from './trace-requests';
export * from './trace-fields';
export * from './tracing-shutdown';
