/**
 * Validates real responses against Zulip's OpenAPI description
 * (`../shared/ref/zulip-openapi.yaml`, beside the repository) with Ajv, which
 * understands OpenAPI 3.0's `nullable`. Hearth may send more than Zulip
 * documents, so `additionalProperties: false` is relaxed; `required` stays.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { parse } from 'yaml';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const OPENAPI_FILE = join(ROOT, '..', 'shared', 'ref', 'zulip-openapi.yaml');

type Json = Record<string, unknown>;

function relax(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(relax);
  if (!node || typeof node !== 'object') return;
  const o = node as Json;
  if (o.additionalProperties === false) delete o.additionalProperties;
  delete o.example;
  delete o.examples;
  for (const v of Object.values(o)) relax(v);
  // OpenAPI 3.0's `nullable` as JSON Schema: null is one more allowed type.
  if (o.nullable === true) {
    delete o.nullable;
    if (typeof o.type === 'string') {
      o.type = [o.type, 'null'];
      if (Array.isArray(o.enum)) o.enum = [...o.enum, null];
    } else {
      const copy = { ...o };
      for (const k of Object.keys(o)) delete o[k];
      o.anyOf = [copy, { type: 'null' }];
    }
  }
}

export class OpenApi {
  private readonly ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  private readonly cache = new Map<string, ValidateFunction>();
  readonly doc: Json;

  constructor() {
    this.doc = parse(readFileSync(OPENAPI_FILE, 'utf8')) as Json;
    relax(this.doc);
    this.ajv.addSchema({ $id: 'zulip', components: this.doc.components } as never);
  }

  /** The 200 response schema of an operation, with its $refs pointing into the loaded document. */
  private validator(method: string, path: string): ValidateFunction {
    const key = `${method} ${path}`;
    let v = this.cache.get(key);
    if (!v) {
      const op = ((this.doc.paths as Json)[path] as Json | undefined)?.[method] as Json | undefined;
      if (!op) throw new Error(`no operation ${key} in the OpenAPI document`);
      const content = (((op.responses as Json)['200'] as Json).content as Json)['application/json'] as Json;
      const schema = JSON.parse(JSON.stringify(content.schema).replaceAll('"#/components/', '"zulip#/components/'));
      v = this.ajv.compile(schema);
      this.cache.set(key, v);
    }
    return v;
  }

  /** Human-readable errors of a body against an operation's 200 schema (empty when valid). */
  errors(method: string, path: string, body: unknown): string[] {
    const v = this.validator(method, path);
    if (v(body)) return [];
    return (v.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
  }

  private eventSchemas: ValidateFunction[] | null = null;

  /**
   * Errors of one event: it must match one of the documented event schemas; the
   * errors reported are those of the schemas whose `type` and `op` it matches.
   */
  eventErrors(event: Json): string[] {
    if (!this.eventSchemas) {
      const inner = (this.doc.components as Json).schemas as Json;
      this.eventSchemas = ((inner.get_events_200_response_allOf_events_inner as Json).oneOf as Json[]).map((ref) =>
        this.ajv.compile(JSON.parse(JSON.stringify(ref).replaceAll('"#/components/', '"zulip#/components/'))),
      );
    }
    const errors: string[] = [];
    for (const validate of this.eventSchemas) {
      if (validate(event)) return [];
      const errs = validate.errors ?? [];
      if (errs.some((e) => e.instancePath === '/type' || e.instancePath === '/op')) continue;
      errors.push(...errs.map((e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`));
    }
    return errors.length ? errors : [`no documented event schema for type ${String(event.type)} op ${String(event.op)}`];
  }
}

export const openApiAvailable = () => existsSync(OPENAPI_FILE);

/**
 * For `describe(..., { skip: skipWithoutOpenApi('...') })`: false when Zulip's OpenAPI file is
 * beside the repository (CI has it), else the reason, after printing a notice: a plain clone
 * has no `../shared`, and its tests skip these checks instead of failing.
 */
export function skipWithoutOpenApi(what: string): string | false {
  if (openApiAvailable()) return false;
  const why = `${OPENAPI_FILE} not found (a clone without ../shared): ${what} skipped`;
  process.stderr.write(`notice: ${why}\n`);
  return why;
}
