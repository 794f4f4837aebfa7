export * from './transaction-event';
export * from './authorization-response';
export * from './signing';
export * from './dto/limits';
export * from './dto/validators';
export * from './entry-modes';
export * from './transaction-search';
export * from './dto/print-job';
