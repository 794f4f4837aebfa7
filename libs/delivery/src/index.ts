export * from './destination-policy';
export * from './retry-policy';
export * from './webhook-post';
export * from './webhook-signature';
export * from './dispatcher';
export * from './delivery-leases';
export * from './group-commit';
export * from './print-callback';
