import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

type Json = { [key: string]: unknown };

interface Operation {
  template: string;
  pattern: RegExp;
  /** Literal segments outrank parameters: `/print/{id}` is matched before `/{serial}/print`. */
  literals: number;
  responses: Record<string, Json>;
  pointer: string;
}

const DOCUMENT_ID = 'openapi.json';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** A JSON pointer token (RFC 6901). */
const token = (text: string): string => text.replace(/~/g, '~0').replace(/\//g, '~1');

function operationsOf(document: Json): Map<string, Operation[]> {
  const byMethod = new Map<string, Operation[]>();
  for (const [template, item] of Object.entries(document.paths as Record<string, Json>)) {
    const segments = template.split('/');
    const pattern = new RegExp(
      `^${segments.map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^$()[\]\\|]/g, '\\$&'))).join('/')}$`,
    );
    for (const method of METHODS) {
      const operation = item[method] as Json | undefined;
      if (operation === undefined) continue;
      const list = byMethod.get(method) ?? [];
      list.push({
        template,
        pattern,
        literals: segments.filter((s) => !s.startsWith('{')).length,
        responses: operation.responses as Record<string, Json>,
        pointer: `#/paths/${token(template)}/${method}/responses`,
      });
      byMethod.set(method, list);
    }
  }
  for (const list of byMethod.values()) list.sort((a, b) => b.literals - a.literals);
  return byMethod;
}

/**
 * Checks answers against the API's own OpenAPI document with a JSON Schema 2020-12 validator:
 * the status must be one the operation declares, and the body must match that response's schema.
 * A request to a path the document does not have (a deliberate 404) is not checked.
 */
export class OpenApiConformance {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  private readonly operations: Map<string, Operation[]>;

  constructor(document: Json) {
    addFormats(this.ajv);
    this.ajv.addSchema(document, DOCUMENT_ID);
    this.operations = operationsOf(document);
  }

  static async load(baseUrl: string): Promise<OpenApiConformance> {
    const response = await fetch(`${baseUrl}/openapi.json`, { signal: AbortSignal.timeout(30_000) });
    if (!response.ok) throw new Error(`GET /openapi.json answered ${response.status}`);
    return new OpenApiConformance((await response.json()) as Json);
  }

  /** What is wrong with a webhook the service sent, against the document's `webhooks[name]`. */
  webhookProblem(name: string, body: unknown): string | undefined {
    const pointer = `${DOCUMENT_ID}#/webhooks/${token(name)}/post/requestBody/content/application~1json/schema`;
    const validate = this.ajv.getSchema(pointer);
    if (validate === undefined) return `the document describes no webhook ${name}`;
    if (validate(body)) return undefined;
    return `webhook ${name} ${JSON.stringify(body).slice(0, 500)}: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}`;
  }

  /** What is wrong with an answer, or undefined when the document allows it. */
  problem(method: string, target: string, status: number, text: string): string | undefined {
    const path = target.split('?')[0];
    const operation = this.operations.get(method.toLowerCase())?.find((o) => o.pattern.test(path));
    if (operation === undefined) return undefined;
    const what = `${method} ${target} (${operation.template}) answered ${status} ${text.slice(0, 500)}`;
    const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => k in operation.responses);
    if (key === undefined) return `${what}: the document declares no ${status} answer`;
    const content = operation.responses[key].content as Record<string, Json> | undefined;
    const json = content?.['application/json'];
    if (json === undefined) return text.length === 0 ? undefined : `${what}: the document declares no body`;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return `${what}: the body is not JSON`;
    }
    const validate = this.ajv.getSchema(
      `${DOCUMENT_ID}${operation.pointer}/${token(key)}/content/application~1json/schema`,
    );
    if (validate === undefined) return `${what}: the response schema could not be compiled`;
    if (validate(body)) return undefined;
    return `${what}: ${this.ajv.errorsText(validate.errors, { separator: '; ' })}`;
  }
}
