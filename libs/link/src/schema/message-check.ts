import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler, ValueErrorType, type TypeCheck, type ValueError } from '@sinclair/typebox/compiler';
import { Value } from '@sinclair/typebox/value';

/**
 * Why a received message was refused: the first failing field, as the contract's error body says
 * it (PAR-002 a missing or invalid one, `param` naming the path; PAR-001 an unknown field where no
 * variant of a union could be told, or a frame that is not JSON).
 */
export interface Refusal {
  code: 'PAR-001' | 'PAR-002';
  /** Such as `links[0].event.status`; empty for the message as a whole. */
  param: string;
  message: string;
}

export type CheckResult<T> = { ok: true; value: T } | { ok: false; refusal: Refusal };

/** `/links/0/event` → `links[0].event`, the way the contract names a field. */
function contractPath(pointer: string): string {
  let path = '';
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    if (/^\d+$/.test(key)) path += `[${key}]`;
    else path += path === '' ? key : `.${key}`;
  }
  return path;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The literal fields of an object schema (`type`, `kind`, `f`, `ok`), with the values they allow. */
function tags(variant: TSchema): Array<[string, unknown[]]> {
  const properties = (variant.properties ?? {}) as Record<string, TSchema>;
  const found: Array<[string, unknown[]]> = [];
  for (const [key, property] of Object.entries(properties)) {
    if ('const' in property) found.push([key, [property.const]]);
    else if (Array.isArray(property.anyOf) && property.anyOf.every((one: TSchema) => 'const' in one)) {
      found.push([key, property.anyOf.map((one: TSchema) => one.const as unknown)]);
    }
  }
  return found;
}

/** The one variant of a union whose literal fields the value has, if exactly one. */
function variantFor(union: TSchema, value: unknown): TSchema | undefined {
  if (!isObject(value) || !Array.isArray(union.anyOf)) return undefined;
  const matching = (union.anyOf as TSchema[]).filter((variant) => {
    const literal = tags(variant);
    return literal.length > 0 && literal.every(([key, allowed]) => allowed.includes(value[key]));
  });
  return matching.length === 1 ? matching[0] : undefined;
}

/**
 * The value without the fields its schema does not name, at every depth: a union is followed into
 * the variant the value names, or the first one it then fits. A newer app's added fields are
 * dropped rather than refused, so that two versions run side by side during a rolling deploy
 * (docs/contract.md, "Links between the apps"); the fields this end knows are still checked.
 */
function withoutUnknownFields(schema: TSchema, value: unknown): unknown {
  if (Array.isArray(schema.anyOf)) {
    const named = variantFor(schema, value);
    if (named !== undefined) return withoutUnknownFields(named, value);
    for (const variant of schema.anyOf as TSchema[]) {
      const known = withoutUnknownFields(variant, value);
      if (Value.Check(variant, known)) return known;
    }
    return value;
  }
  if (Array.isArray(value)) {
    const items = schema.type === 'array' ? (schema.items as TSchema | undefined) : undefined;
    return items === undefined ? value : value.map((item) => withoutUnknownFields(items, item));
  }
  // A record (patternProperties) names no field: every key is one of its own.
  if (!isObject(value) || schema.type !== 'object' || !isObject(schema.properties)) return value;
  const properties = schema.properties as Record<string, TSchema>;
  const known: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(value)) {
    if (Object.hasOwn(properties, key)) known[key] = withoutUnknownFields(properties[key], field);
  }
  return known;
}

/**
 * The first error, followed into the variant of a tagged union the value names, so that a refusal
 * points at the failing field (`request.order.amount.iva`) rather than at the whole union.
 */
function firstError(schema: TSchema, value: unknown, prefix = ''): ValueError | undefined {
  const error = Value.Errors(schema, value).First();
  if (error?.type !== ValueErrorType.Union) return error && { ...error, path: prefix + error.path };
  const variant = variantFor(error.schema, error.value);
  if (variant === undefined) return { ...error, path: prefix + error.path };
  return firstError(variant, error.value, prefix + error.path);
}

/** The tag field every variant of a union has (`type`, `kind`, `f`), with the values it takes. */
function sharedTag(union: TSchema): [string, unknown[]] | undefined {
  const variants = (union.anyOf ?? []) as TSchema[];
  const key = tags(variants[0] ?? {})
    .map(([name]) => name)
    .find((name) => variants.every((variant) => tags(variant).some(([k]) => k === name)));
  if (key === undefined) return undefined;
  const values = variants.flatMap((variant) => tags(variant).find(([k]) => k === key)?.[1] ?? []);
  return [key, [...new Set(values)]];
}

/** Where the error is and what it says; a union's unknown tag is named with the values it takes. */
function explain(error: ValueError): { pointer: string; text: string } {
  if (error.type === ValueErrorType.ObjectAdditionalProperties) {
    return { pointer: error.path, text: 'not a field of this message' };
  }
  if (error.type === ValueErrorType.Never) return { pointer: error.path, text: 'this end takes none' };
  // JSON has no undefined: a field without a value is one the message lacks.
  if (error.value === undefined) return { pointer: error.path, text: 'missing' };
  const tag =
    error.type === ValueErrorType.Union && isObject(error.value) ? sharedTag(error.schema) : undefined;
  // Only when the tag itself is wrong: a known tag's variant was followed already (firstError).
  if (tag !== undefined && !tag[1].includes((error.value as Record<string, unknown>)[tag[0]])) {
    const [key, allowed] = tag;
    const got =
      key in (error.value as object)
        ? JSON.stringify((error.value as Record<string, unknown>)[key])
        : 'missing';
    return {
      pointer: `${error.path}/${key}`,
      text: `${got}, expected one of ${allowed.map((value) => JSON.stringify(value)).join(', ')}`,
    };
  }
  return { pointer: error.path, text: error.message.toLowerCase() };
}

/**
 * The compiled check of one kind of link message: one schema, from which the message's type also
 * comes (Static), so what is declared is what is checked.
 */
export class MessageCheck<S extends TSchema> {
  private readonly compiled: TypeCheck<S>;

  constructor(
    /** What the message is, for refusals and log lines: `uplink request`, `control notice`. */
    readonly kind: string,
    readonly schema: S,
  ) {
    this.compiled = TypeCompiler.Compile(schema);
  }

  /** The message as this end knows it; fields it does not know are dropped, not refused. */
  check(value: unknown): CheckResult<Static<S>> {
    if (this.compiled.Check(value)) return { ok: true, value };
    const known = withoutUnknownFields(this.schema, value);
    if (this.compiled.Check(known)) return { ok: true, value: known };
    return { ok: false, refusal: this.refusal(known) };
  }

  private refusal(value: unknown): Refusal {
    const error = firstError(this.schema, value);
    if (error === undefined) return { code: 'PAR-002', param: '', message: `${this.kind}: invalid` };
    const { pointer, text } = explain(error);
    const param = contractPath(pointer);
    const code = error.type === ValueErrorType.ObjectAdditionalProperties ? 'PAR-001' : 'PAR-002';
    return { code, param, message: `${this.kind}: ${param === '' ? 'the message' : param}: ${text}` };
  }
}
