export * from './test-database';
export * from './statement-log';
