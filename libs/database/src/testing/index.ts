export * from './test-database';
export * from './statement-log';
export * from './port-store';
