export * from './lifecycle';
export * from './amounts';
export * from './operation-types';
export * from './error-codes';
export * from './print-lifecycle';
