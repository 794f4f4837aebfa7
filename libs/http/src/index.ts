export * from './contract-exception.filter';
export * from './validation';
export * from './json-body';
export * from './json-scan';
export * from './request-id';
export * from './answered-requests';
export * from './client-errors';
