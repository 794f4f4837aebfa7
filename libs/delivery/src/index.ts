export * from './destination-policy';
