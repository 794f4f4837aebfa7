import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';
import { schemaRules, UUID_PATTERN } from '@tps/contracts/dto';

type Schemas = Record<string, SchemaObject | ReferenceObject>;

/** Gives every `uuid` string the pattern of what the validators take, at any depth of the schema. */
function patternUuids(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(patternUuids);
  if (typeof node !== 'object' || node === null) return;
  const schema = node as Record<string, unknown>;
  if (schema.format === 'uuid' && schema.pattern === undefined) schema.pattern = UUID_PATTERN;
  Object.values(schema).forEach(patternUuids);
}

/**
 * States in the document's schemas what the validators enforce beyond the property decorators:
 * the cross-field rules of the DTO classes (`ApiSchemaRules`) and the exact form of a UUID.
 */
export function stateEnforcedLimits(schemas: Schemas): void {
  for (const [name, rules] of schemaRules()) {
    const schema = schemas[name];
    if (schema !== undefined && !('$ref' in schema)) Object.assign(schema, rules);
  }
  patternUuids(schemas);
}
