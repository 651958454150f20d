/**
 * The official JSON Schema Test Suite (draft 2020-12 and draft-07), as tool
 * parameters. test/fixtures/json-schema-test-suite/ holds the suite's
 * top-level test files of both drafts (not `optional/`), its LICENSE and the
 * COMMIT they were copied from.
 *
 * How a suite schema becomes a tool (`wrapSuiteSchema`): tool arguments are
 * always an object, so the schema S becomes the one required property of a
 * closed object, `{ type: object, properties: { value: S }, required:
 * [value], additionalProperties: false }`, and each test instance d becomes
 * the call `{ value: d }`. Local refs are rewritten to point into the wrapper
 * (`#/$defs/x` → `#/properties/value/$defs/x`, `#` → `#/properties/value`);
 * S's own `$schema` moves to the wrapper (draft-07 files get
 * `$schema: draft-07` there). Nothing else changes: refs inside data
 * (`const`, `enum`, `default`, `examples`) are data and stay as written.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SUITE_DIR = fileURLToPath(new URL('../fixtures/json-schema-test-suite', import.meta.url));
export const SUITE_DIALECTS = ['draft2020-12', 'draft7'] as const;
export type SuiteDialect = (typeof SUITE_DIALECTS)[number];

export interface SuiteCase {
  readonly description: string;
  readonly data: unknown;
  readonly valid: boolean;
}

export interface SuiteGroup {
  readonly dialect: SuiteDialect;
  /** The suite file, e.g. `ref.json`. */
  readonly file: string;
  readonly description: string;
  readonly schema: unknown;
  readonly tests: readonly SuiteCase[];
  /** `draft7/ref.json#root pointer ref`: a stable id for lists of groups. */
  readonly id: string;
}

/**
 * Every group of every top-level test file of both drafts, in file order.
 *
 * @example
 * loadSuite().length; // 580 or so
 */
export function loadSuite(): SuiteGroup[] {
  const out: SuiteGroup[] = [];
  for (const dialect of SUITE_DIALECTS) {
    const dir = path.join(SUITE_DIR, dialect);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
      const groups = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { description: string; schema: unknown; tests: SuiteCase[] }[];
      for (const g of groups) out.push({ dialect, file, description: g.description, schema: g.schema, tests: g.tests, id: `${dialect}/${file}#${g.description}` });
    }
  }
  return out;
}

const SCHEMA_ONE = new Set(['additionalProperties', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema', 'additionalItems', 'items']);
const SCHEMA_LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
const SCHEMA_MAP = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies']);

const own = (o: Record<string, unknown>, k: string, v: unknown) => Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });

/** Rewrites local refs of a subschema to point into the wrapper; data positions are copied as they are. */
function rewrite(node: unknown, root: boolean, scoped = false): unknown {
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
  const out: Record<string, unknown> = {};
  // Under an `$id`, refs resolve against that id, not against the wrapper: they stay as written.
  scoped ||= '$id' in node;
  for (const [k, v] of Object.entries(node)) {
    if (k === '$schema' && root) continue;
    if ((k === '$ref' || k === '$dynamicRef') && !scoped && typeof v === 'string' && (v === '#' || v.startsWith('#/'))) own(out, k, `#/properties/value${v.slice(1)}`);
    else if (SCHEMA_LIST.has(k) && Array.isArray(v)) own(out, k, v.map((s) => rewrite(s, false, scoped)));
    else if (SCHEMA_ONE.has(k)) own(out, k, rewrite(v, false, scoped));
    else if (SCHEMA_MAP.has(k) && typeof v === 'object' && v !== null && !Array.isArray(v)) {
      const map: Record<string, unknown> = {};
      for (const [name, s] of Object.entries(v)) own(map, name, Array.isArray(s) ? s : rewrite(s, false, scoped));
      own(out, k, map);
    } else own(out, k, v);
  }
  return out;
}

/**
 * A suite schema as a tool's `parameters` (see the file comment).
 *
 * @example
 * wrapSuiteSchema({ $ref: '#/$defs/a', $defs: { a: { type: 'integer' } } }, 'draft2020-12');
 * // { type: 'object', properties: { value: { $ref: '#/properties/value/$defs/a', $defs: … } }, required: ['value'], additionalProperties: false }
 */
export function wrapSuiteSchema(schema: unknown, dialect: SuiteDialect): Record<string, unknown> {
  return {
    ...(dialect === 'draft7' ? { $schema: 'http://json-schema.org/draft-07/schema#' } : {}),
    type: 'object',
    properties: { value: rewrite(schema, true) },
    required: ['value'],
    additionalProperties: false,
  };
}

/**
 * A JSON value as a TypeScript expression of the same value: JSON, except a
 * `__proto__` key is written computed (`["__proto__"]`), which is an own
 * property in JavaScript and an ordinary property to TypeScript.
 *
 * @example
 * tsLiteral({ __proto__: 1 } as never); // '{"__proto__":1}' for a normal key; '{["__proto__"]:1}' for an own `__proto__`
 */
export function tsLiteral(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(tsLiteral).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    return `{${Object.entries(v).map(([k, x]) => `${k === '__proto__' ? `[${JSON.stringify(k)}]` : JSON.stringify(k)}:${tsLiteral(x)}`).join(',')}}`;
  }
  return JSON.stringify(v);
}
