export * from './app-process';
export * from './signed-client';
export * from './stack';
export * from './webhook-receiver';
export * from './sqlite-rows';
export * from './scenario-bodies';
export * from './openapi-conformance';
export * from './fleet';
