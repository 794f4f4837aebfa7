export * from './destination-policy';
export * from './print-callback';
