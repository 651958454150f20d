/**
 * Valid JSON Schema that ajv 8 evaluates differently from the specification, refused rather than
 * validated by other rules than the ones written (unsupported_schema_keyword). All concern
 * `unevaluated*` after `contains`, an `if` without `then`/`else`, or `items` inside a branch.
 */
import { isJsonObject, type JsonValue } from '../ir.js';
import { listAt } from './context.js';
import { SUBSCHEMA_KEYWORDS, type SchemaProblem } from './schema-keywords.js';

/** Keywords whose subschemas apply to the same instance as their parent (in place). */
const IN_PLACE_ONE = ['not', 'if', 'then', 'else'];
const IN_PLACE_LIST = ['allOf', 'anyOf', 'oneOf'];
const BRANCHING = new Set(['anyOf', 'oneOf', 'if', 'then', 'else']);
const { one: SUBSCHEMA_ONE, list: SUBSCHEMA_LIST, map: SUBSCHEMA_MAP } = SUBSCHEMA_KEYWORDS;

const trivial = (v: JsonValue | undefined) => v === undefined || v === true || (isJsonObject(v) && Object.keys(v).length === 0);

/** Every schema object applied in place to the instance of `node` (itself included), with whether it sits in a branch. */
function inPlace(node: Record<string, JsonValue>, branch: boolean, out: { node: Record<string, JsonValue>; branch: boolean }[]): void {
  out.push({ node, branch });
  for (const k of IN_PLACE_ONE) {
    const s = node[k];
    if (isJsonObject(s)) inPlace(s, branch || BRANCHING.has(k), out);
  }
  for (const k of IN_PLACE_LIST) for (const s of listAt(node[k])) if (isJsonObject(s)) inPlace(s, branch || BRANCHING.has(k), out);
  if (isJsonObject(node.dependentSchemas)) for (const s of Object.values(node.dependentSchemas)) if (isJsonObject(s)) inPlace(s, true, out);
}

/**
 * Reports the `unevaluated*` combinations ajv evaluates wrongly, anywhere in
 * an inlined schema (paths are those of the inlined schema, mapped with `toSpec`).
 *
 * @example
 * checkEngineLimits({ type: 'array', contains: { type: 'string' }, unevaluatedItems: false }, [], problems, (p) => p);
 * // problems: unsupported_schema_keyword at unevaluatedItems
 */
export function checkEngineLimits(schema: JsonValue, path: (string | number)[], problems: SchemaProblem[], toSpec: (p: (string | number)[]) => (string | number)[]): void {
  if (!isJsonObject(schema)) return;
  const items = !trivial(schema.unevaluatedItems);
  const props = !trivial(schema.unevaluatedProperties);
  if (items || props) {
    const tree: { node: Record<string, JsonValue>; branch: boolean }[] = [];
    inPlace(schema, false, tree);
    const keyword = items ? 'unevaluatedItems' : 'unevaluatedProperties';
    const add = (why: string, hint: string) =>
      problems.push({ code: 'unsupported_schema_keyword', path: toSpec([...path, keyword]), at: 'key', message: `this \`${keyword}\` ${why}`, hint });
    if (items && tree.some((t) => 'contains' in t.node)) {
      add('sits next to `contains`, whose matched items ajv (the validator toolroute compiles) does not count as evaluated: valid arrays would be rejected.',
        'Say what the other items may be with `items` (or `prefixItems`) instead of `unevaluatedItems`.');
    } else if (tree.some((t) => 'if' in t.node && (!('then' in t.node) || !('else' in t.node)))) {
      add('depends on an `if` without `then` or without `else`, and ajv (the validator toolroute compiles) drops what such an `if` evaluated: valid arguments would be rejected.',
        'Give the `if` both `then` and `else`, each listing the members it allows (`properties` / `prefixItems`): ajv counts what those evaluate.');
    } else if (items && tree.some((t) => t.branch && 'items' in t.node)) {
      add('depends on `items` inside an `anyOf`, `oneOf` or `if` branch, which ajv (the validator toolroute compiles) does not count as evaluating the items.',
        'Move `items` out of the branch, or drop `unevaluatedItems` and say what the items may be with `items`.');
    }
  }
  for (const k of SUBSCHEMA_ONE) if (k in schema) checkEngineLimits(schema[k] as JsonValue, [...path, k], problems, toSpec);
  for (const k of SUBSCHEMA_LIST) listAt(schema[k]).forEach((s, i) => checkEngineLimits(s as JsonValue, [...path, k, i], problems, toSpec));
  for (const k of SUBSCHEMA_MAP) if (isJsonObject(schema[k])) for (const [name, s] of Object.entries(schema[k] as Record<string, JsonValue>)) checkEngineLimits(s, [...path, k, name], problems, toSpec);
}
