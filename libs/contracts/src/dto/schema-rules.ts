/** JSON Schema keywords of a whole body: what ties one field to another. */
export type SchemaRules = Readonly<Record<string, unknown>>;

const RULES = new Map<string, SchemaRules>();

/**
 * States, in the document's schema of this class, a rule its validators enforce across fields
 * (one of two fields, one required with a value of another) that no property decorator can say.
 * The document's finisher merges it into the schema named after the class.
 */
export function ApiSchemaRules(rules: SchemaRules): ClassDecorator {
  return (target) => {
    RULES.set(target.name, rules);
  };
}

/** Every class's rules, by schema name. */
export function schemaRules(): ReadonlyMap<string, SchemaRules> {
  return RULES;
}
