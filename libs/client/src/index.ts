export * from './client';
export * from './signed-fetch';
export * from './webhooks';
export type { components, operations, paths } from './generated/openapi';
