export * from './message-port';
export * from './in-process-port';
