/**
 * @nestjs/swagger writes OpenAPI 3.0 schemas; OpenAPI 3.1 schemas are JSON Schema 2020-12, which
 * has no `nullable`. This rewrites `nullable: true` as a `null` type (and a `null` enum value).
 */
type Json = { [key: string]: unknown };

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function withoutNullable(schema: Json): Json {
  const { nullable, ...rest } = schema;
  if (nullable !== true) return rest;
  if (Array.isArray(rest.enum)) rest.enum = [...(rest.enum as unknown[]), null];
  if (typeof rest.type === 'string') return { ...rest, type: [rest.type, 'null'] };
  if (Array.isArray(rest.allOf) && rest.allOf.length === 1 && rest.type === undefined) {
    const { allOf, ...others } = rest;
    return { ...others, oneOf: [allOf[0], { type: 'null' }] };
  }
  if (rest.$ref !== undefined) {
    const { $ref, ...others } = rest;
    return { ...others, oneOf: [{ $ref }, { type: 'null' }] };
  }
  return rest;
}

/** Rewrites every schema of the document, in place of the 3.0 forms. */
export function toOpenApi31<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => toOpenApi31(item)) as T;
  if (!isObject(value)) return value;
  const rewritten = Object.fromEntries(Object.entries(value).map(([key, item]) => [key, toOpenApi31(item)]));
  return withoutNullable(rewritten) as T;
}
