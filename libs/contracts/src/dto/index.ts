export * from './limits';
export * from './validators';
export * from './amount.dto';
export * from './async-charge.dto';
export * from './transaction-event.doc';
export * from './print-job';
export * from './print-job.dto';
