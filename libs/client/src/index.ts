export * from './client';
export * from './signed-fetch';
export type { components, operations, paths } from './generated/openapi';
