export * from './client';
export * from './signed-fetch';
export type { SignedPaths } from './signed-paths';
export type { components, operations, paths } from './generated/openapi';
