/**
 * What a schema alone proves about the values its validator accepts: every
 * number finite and objects and arrays nested at most so deep — the two
 * things the runtime's argument limits (call-shape.ts) walk for. Where the
 * schema proves both, dispatch walks only a rejected call.
 *
 * Conservative: only keywords that bound a value's shape are read (another
 * keyword can only narrow what is accepted); anything unbounded makes the
 * whole schema unbounded. Numbers are finite because the validators use
 * ajv's `strictNumbers`; `default` values count as accepted values.
 */
import type { JsonSchema, JsonValue } from '../ir.js';

/** Marks "no bound" while folding. */
const UNBOUNDED = -1;

/** JSON types the analysis knows; a `type` naming anything else leaves the schema unbounded. */
const PRIMITIVE_TYPES = new Set(['string', 'boolean', 'null', 'number', 'integer']);

/**
 * The deepest container nesting of any value `schema` accepts (the argument
 * object itself is depth 1, as the runtime's `maxDepth` counts), provided
 * every number such a value holds is finite; `undefined` when the schema does
 * not prove both. Pure.
 *
 * @example
 * acceptedDepth({ type: 'object', properties: { q: { type: 'string' }, n: { type: 'integer' } }, additionalProperties: false }); // → 1
 * acceptedDepth({ type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } }, additionalProperties: false }); // → 2
 * acceptedDepth({ type: 'object', properties: { meta: {} }, additionalProperties: false }); // → undefined (meta holds anything)
 * acceptedDepth({ type: 'object', properties: { q: { type: 'string' } } }); // → undefined (open object)
 */
export function acceptedDepth(schema: JsonSchema): number | undefined {
  const depth = schemaDepth(schema);
  return depth === UNBOUNDED ? undefined : Math.max(depth, 1);
}

/** Container depth of the values a subschema accepts (0: only primitives), or UNBOUNDED. */
function schemaDepth(node: JsonValue | undefined): number {
  if (node === false) return 0; // accepts nothing
  if (typeof node !== 'object' || node === null || Array.isArray(node)) return UNBOUNDED; // `true`, or not a schema
  // Every candidate below is a superset of what the node accepts; the smallest bounded one wins.
  let best = UNBOUNDED;
  const narrow = (d: number): void => {
    if (d !== UNBOUNDED && (best === UNBOUNDED || d < best)) best = d;
  };
  if (Array.isArray(node['enum'])) narrow(joinAll(node['enum'].map(literalDepth)));
  if (Object.hasOwn(node, 'const')) narrow(literalDepth(node['const']!));
  const type = node['type'];
  const types = typeof type === 'string' ? [type] : Array.isArray(type) && type.every((t) => typeof t === 'string') ? (type as string[]) : undefined;
  if (types !== undefined) narrow(joinAll(types.map((t) => typeDepth(t, node))));
  if (Array.isArray(node['allOf'])) for (const member of node['allOf']) narrow(schemaDepth(member));
  for (const key of ['anyOf', 'oneOf']) {
    const members = node[key];
    if (Array.isArray(members)) narrow(joinAll(members.map(schemaDepth)));
  }
  if (best === UNBOUNDED) return UNBOUNDED;
  // A validator that fills defaults writes this value where the node applies.
  if (Object.hasOwn(node, 'default')) return join(best, literalDepth(node['default']!));
  return best;
}

/** Depth of the values of JSON type `t` that `node` accepts. */
function typeDepth(t: string, node: JsonSchema): number {
  if (PRIMITIVE_TYPES.has(t)) return 0;
  if (t === 'object') return container(objectMembers(node));
  if (t === 'array') return container(arrayMembers(node));
  return UNBOUNDED;
}

/** One level of nesting above the members' depth. */
function container(members: number): number {
  return members === UNBOUNDED ? UNBOUNDED : members + 1;
}

/** Depth of any property value of an object `node` accepts: each one meets `properties`, a pattern, or `additionalProperties`. */
function objectMembers(node: JsonSchema): number {
  if (!Object.hasOwn(node, 'additionalProperties')) return UNBOUNDED;
  const parts = [schemaDepth(node['additionalProperties'])];
  for (const key of ['properties', 'patternProperties']) {
    const map = node[key];
    if (map === undefined) continue;
    if (typeof map !== 'object' || map === null || Array.isArray(map)) return UNBOUNDED;
    for (const name of Object.keys(map)) parts.push(schemaDepth(map[name]));
  }
  return joinAll(parts);
}

/** Depth of any item of an array `node` accepts: a tuple position's schema, or the schema of the rest. */
function arrayMembers(node: JsonSchema): number {
  const items = node['items'];
  // Draft 2020-12 `prefixItems` + `items`; the draft-07 array form of `items` + `additionalItems` is read too.
  const tuple = Array.isArray(items) ? items : Array.isArray(node['prefixItems']) ? node['prefixItems'] : [];
  const rest = Array.isArray(items) ? node['additionalItems'] : items;
  const parts = tuple.map(schemaDepth);
  const maxItems = node['maxItems'];
  const restEmpty = typeof maxItems === 'number' && maxItems <= tuple.length;
  if (!restEmpty) parts.push(rest === undefined ? UNBOUNDED : schemaDepth(rest));
  return joinAll(parts);
}

/** Depth of a literal value (`enum`, `const`, `default`); a non-finite number is unbounded. */
function literalDepth(value: JsonValue): number {
  if (typeof value === 'number') return Number.isFinite(value) ? 0 : UNBOUNDED;
  if (typeof value !== 'object' || value === null) return 0;
  const members = Array.isArray(value) ? value : Object.values(value);
  return container(joinAll(members.map(literalDepth)));
}

function join(a: number, b: number): number {
  return a === UNBOUNDED || b === UNBOUNDED ? UNBOUNDED : Math.max(a, b);
}

/** The largest depth, UNBOUNDED if any is; 0 for none (nothing to hold). */
function joinAll(depths: readonly number[]): number {
  let out = 0;
  for (const d of depths) {
    if (d === UNBOUNDED) return UNBOUNDED;
    if (d > out) out = d;
  }
  return out;
}
