import fc from 'fast-check';

export type Json = Record<string, any>;

/** A string no pattern of the document takes: not ASCII, with a control character. */
const OFF_PATTERN = 'é\t';

function wrongTypeOf(schema: Json): unknown {
  if (schema.type === 'string' || schema.enum !== undefined) return 42;
  if (schema.type === 'array') return {};
  if (schema.type === 'object') return [];
  return 'x';
}

const setAll = (value: unknown, to: number): unknown =>
  typeof value === 'number'
    ? to
    : typeof value === 'object' && value !== null && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, setAll(v, to)]))
      : value;

/**
 * Request bodies drawn from the document's own schemas: `valid` keeps to every keyword the
 * generator reads (types, enums, patterns, lengths, bounds, items), `broken` takes such a value
 * and breaks one thing in it (a bound, a pattern, a type, a field left out, added or unknown).
 * Neither decides what the document says of a body: the test asks a JSON Schema validator, so a
 * value drawn here needs only to be likely on either side of each limit.
 */
export class SchemaCorpus {
  constructor(private readonly document: Json) {}

  resolve(schema: Json): Json {
    let resolved = schema;
    for (;;) {
      // A described reference is written `allOf: [{ $ref }]` beside its description.
      if (Array.isArray(resolved.allOf) && resolved.allOf.length === 1) resolved = resolved.allOf[0] as Json;
      else if (typeof resolved.$ref === 'string')
        resolved = this.document.components.schemas[resolved.$ref.split('/').pop() as string] as Json;
      else return resolved;
    }
  }

  valid(given: Json): fc.Arbitrary<unknown> {
    const schema = this.resolve(given);
    if (schema.properties === undefined && Array.isArray(schema.oneOf)) {
      return fc.oneof(...(schema.oneOf as Json[]).map((branch) => this.valid(branch)));
    }
    if (schema.enum !== undefined) return fc.constantFrom(...(schema.enum as unknown[]));
    if (schema.const !== undefined) return fc.constant(schema.const);
    switch (schema.type) {
      case 'string':
        return this.validString(schema);
      case 'integer':
        return this.validInteger(schema);
      case 'boolean':
        return fc.boolean();
      case 'array': {
        const items = this.valid(schema.items as Json);
        const constraints = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 4, 4) };
        return schema.uniqueItems === true
          ? fc.uniqueArray(items, { ...constraints, selector: (item) => JSON.stringify(item) })
          : fc.array(items, constraints);
      }
      case 'object':
        return this.validObject(schema);
      default:
        throw new Error(`no generator for ${JSON.stringify(schema).slice(0, 200)}`);
    }
  }

  private validString(schema: Json): fc.Arbitrary<string> {
    if (schema.format === 'uuid') return fc.uuid();
    if (schema.format === 'uri')
      return fc.constantFrom(
        'http://127.0.0.1:9/hook',
        'https://127.0.0.1:9/events?lane=2',
        'HTTP://localhost:9/x',
      );
    if (schema.format === 'date-time')
      return fc
        .date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2099-12-31T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((date) => date.toISOString());
    const min = (schema.minLength as number | undefined) ?? 0;
    const max = (schema.maxLength as number | undefined) ?? 64;
    if (schema.pattern !== undefined) {
      return fc
        .stringMatching(new RegExp(schema.pattern as string))
        .filter((text) => text.length >= min && text.length <= max);
    }
    return fc.oneof(
      fc.string({ minLength: min, maxLength: Math.min(max, 24) }),
      fc.string({ minLength: max, maxLength: max }),
    );
  }

  private validInteger(schema: Json): fc.Arbitrary<number> {
    const min = (schema.minimum as number | undefined) ?? -1000;
    const max = (schema.maximum as number | undefined) ?? 1000;
    return fc.oneof(
      fc.constantFrom(min, max),
      fc.integer({ min, max: Math.min(max, min + 100_000) }),
      fc.bigInt({ min: BigInt(min), max: BigInt(max) }).map(Number),
    );
  }

  private validObject(schema: Json): fc.Arbitrary<Json> {
    if (schema.properties === undefined) {
      const names = (schema.propertyNames ?? {}) as Json;
      const key = fc.string({ minLength: names.minLength ?? 1, maxLength: names.maxLength ?? 20 });
      return fc.dictionary(key, this.valid(schema.additionalProperties as Json), {
        maxKeys: Math.min(schema.maxProperties ?? 5, 5),
      });
    }
    const model = Object.fromEntries(
      Object.entries(schema.properties as Record<string, Json>).map(([name, property]) => [
        name,
        this.valid(property),
      ]),
    );
    return fc.record(model, { requiredKeys: (schema.required ?? []) as string[] });
  }

  /** A valid value with one thing in it broken. */
  broken(given: Json): fc.Arbitrary<unknown> {
    return this.valid(given).chain((value) => fc.oneof(...this.breaks(given, value)));
  }

  private breaks(given: Json, value: unknown): Array<fc.Arbitrary<unknown>> {
    const schema = this.resolve(given);
    const options: Array<fc.Arbitrary<unknown>> = [fc.constant(wrongTypeOf(schema)), fc.constant(null)];
    if (schema.enum !== undefined) options.push(fc.constant('NOT_ONE_OF_THEM'));
    if (typeof value === 'string') options.push(...this.stringBreaks(schema));
    if (typeof value === 'number') {
      options.push(fc.constant(value + 0.5), fc.constant(String(value)));
      if (schema.minimum !== undefined) options.push(fc.constant(schema.minimum - 1));
      if (schema.maximum !== undefined) options.push(fc.constant(schema.maximum + 1));
    }
    if (Array.isArray(value)) options.push(...this.arrayBreaks(schema, value));
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      options.push(...this.objectBreaks(schema, value));
    }
    return options;
  }

  private stringBreaks(schema: Json): Array<fc.Arbitrary<unknown>> {
    const options: Array<fc.Arbitrary<unknown>> = [fc.constant(OFF_PATTERN)];
    if (schema.maxLength !== undefined) options.push(fc.constant('a'.repeat(schema.maxLength + 1)));
    if ((schema.minLength ?? 0) > 0) options.push(fc.constant(''));
    if (schema.format === 'uuid')
      options.push(
        fc.constantFrom(
          '12345678-1234-0234-8234-123456789012',
          'urn:uuid:6b2f3c1d-4e5a-4b7c-8d9e-0f1a2b3c4d5e',
        ),
      );
    if (schema.format === 'uri')
      options.push(
        fc.constantFrom('ftp://127.0.0.1/hook', 'http://127.0.0.1:9/a b', '/relative', 'http://ü.example/'),
      );
    if (schema.format === 'date-time')
      options.push(fc.constantFrom('2026-11-22', '2026-02-30T00:00:00Z', '2026-11-22T08:00:00', 'yesterday'));
    return options;
  }

  private arrayBreaks(schema: Json, value: unknown[]): Array<fc.Arbitrary<unknown>> {
    const options: Array<fc.Arbitrary<unknown>> = [];
    if ((schema.minItems ?? 0) > 0) options.push(fc.constant([]));
    if (value.length > 0) {
      const [first, ...rest] = value;
      if (schema.maxItems !== undefined)
        options.push(fc.constant(Array.from({ length: schema.maxItems + 1 }, () => first)));
      if (schema.uniqueItems === true) options.push(fc.constant([first, first]));
      const item = this.itemSchemaOf(schema.items as Json, first);
      options.push(fc.oneof(...this.breaks(item, first)).map((broken) => [broken, ...rest]));
    }
    return options;
  }

  /** The branch of a `oneOf` of items that the item was drawn from: the one whose `type` it has. */
  private itemSchemaOf(items: Json, item: unknown): Json {
    const resolved = this.resolve(items);
    if (!Array.isArray(resolved.oneOf)) return resolved;
    const type = (item as Json | undefined)?.type;
    return (
      (resolved.oneOf as Json[])
        .map((branch) => this.resolve(branch))
        .find((branch) => (branch.properties?.type?.enum as unknown[] | undefined)?.includes(type)) ??
      resolved
    );
  }

  private objectBreaks(schema: Json, value: Json): Array<fc.Arbitrary<unknown>> {
    const options: Array<fc.Arbitrary<unknown>> = [fc.constant(setAll(value, 0))];
    if (schema.properties === undefined) {
      const names = (schema.propertyNames ?? {}) as Json;
      const extra = Array.from({ length: (schema.maxProperties ?? 20) + 1 }, (_, i) => [`k${i}`, 'v']);
      options.push(
        fc.constant({ ...value, ...Object.fromEntries(extra) }),
        fc.constant({ ...value, ['k'.repeat((names.maxLength ?? 40) + 1)]: 'v' }),
        fc.constant({ ...value, '': 'v' }),
        fc.constant({ ...value, constructor: 'v' }),
        fc.constant({ ...value, key: 5 }),
        fc.constant({ ...value, key: 'v'.repeat((schema.additionalProperties?.maxLength ?? 255) + 1) }),
      );
      return options;
    }
    const properties = schema.properties as Record<string, Json>;
    options.push(fc.constant({ ...value, unknown_field: 'x' }));
    for (const [name, property] of Object.entries(properties)) {
      if (name in value) {
        const { [name]: left, ...without } = value;
        options.push(fc.constant(without));
        options.push(
          fc.oneof(...this.breaks(property, left)).map((broken) => ({ ...value, [name]: broken })),
        );
      } else {
        options.push(this.valid(property).map((added) => ({ ...value, [name]: added })));
      }
    }
    return options;
  }
}
