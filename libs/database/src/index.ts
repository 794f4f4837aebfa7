export * from './data-source-options';
export * from './serial-writer';
export * from './migrations/api';
export * from './migrations/terminal';
export * from './insert-rows';
export * from './storage-failure';
