export * from './secret-keyring';
export * from './sealed-column';
export * from './local-key-file';
