export * from './contract-exception.filter';
export * from './validation';
