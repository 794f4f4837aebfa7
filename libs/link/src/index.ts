export * from './frames';
export * from './link-peer';
export * from './messages';
export * from './operation-order';
export * from './transaction-outcome';
export * from './print-order';
export * from './operation-reply';
export * from './share';
