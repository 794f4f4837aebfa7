export * from './print-callback';
