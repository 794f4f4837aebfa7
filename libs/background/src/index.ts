export * from './periodic-task';
