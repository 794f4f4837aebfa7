export * from './message-port';
export * from './in-process-port';
export * from './postgres-port';
export * from './postgres/postgres-connector';
