export * from './lifecycle';
export * from './amounts';
export * from './operation-types';
export * from './error-codes';
export * from './mexico-city-time';
export * from './void-cutoff';
export * from './preauth-validity';
export * from './business-state';
