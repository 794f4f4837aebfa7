export * from './limits';
export * from './validators';
export * from './amount.dto';
export * from './async-charge.dto';
export * from './transaction-event.doc';
export * from './operations.dto';
export * from './transaction-search.dto';
