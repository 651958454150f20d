/**
 * The defaults `applyDefaults` fills in, checked: a `default` of a property named like an `Object.prototype` member is
 * never filled in (ajv's `data.toString === undefined` is always false), so the validator's copy drops it and the author
 * is told (default_not_applied); a default not of its property's `type` is refused (it would fail its own schema).
 */
import { propertyDefaults } from '../emit/defaults.js';
import { PROTOTYPE_NAMES } from '../emit/prototype-names.js';
import { declaredTypes, hasType } from './schema-keywords.js';
import type { JsonValue } from '../ir.js';
import { isShorthand } from './parameters.js';
import { isRecord, type Context } from './context.js';
import type { ToolEntry } from './references.js';

/**
 * A warning at each such `default` of each defined tool's `parameters`, when
 * the spec sets `options.applyDefaults: true`.
 *
 * @example
 * checkUnfilledDefaults(ctx, root, entries); // warning default_not_applied at tools[0].parameters.toString.default
 */
export function checkUnfilledDefaults(ctx: Context, root: Record<string, unknown>, entries: readonly ToolEntry[]): void {
  if (!isRecord(root.options) || root.options.applyDefaults !== true) return;
  for (const e of entries) {
    const parameters = e.definition?.parameters;
    if (!isRecord(parameters)) continue;
    // The shorthand is the properties map itself (validate/parameters.ts expands it the same way).
    const shorthand = isShorthand(parameters);
    const schema = (shorthand ? { type: 'object', properties: parameters } : parameters) as JsonValue;
    for (const { path, property, value, schema: own } of propertyDefaults(schema)) {
      const written = shorthand && path[0] === 'properties' ? path.slice(1) : path;
      const name = JSON.stringify(property);
      const types = declaredTypes(own) ?? [];
      if (!PROTOTYPE_NAMES.has(property)) {
        // Filled in, a default of another type fails its own schema: every call that leaves the property out would be refused.
        if (types.length > 0 && !types.some((t) => hasType(value, t))) {
          ctx.add('invalid_schema', [...e.path, 'parameters', ...written], `the default of ${name} (${JSON.stringify(value)}) is not of its \`type\` (${types.join(', ')}): with \`applyDefaults\` the validator fills it in, and then refuses every call of tool ${JSON.stringify(e.name)} that leaves ${name} out.`,
            `Write a default of the property's type${typeof value === 'string' && types.some((t) => t === 'number' || t === 'integer') ? ' (a number, unquoted)' : ''}, or remove it.`);
        }
        continue;
      }
      ctx.add(
        'default_not_applied',
        [...e.path, 'parameters', ...written],
        `the default of ${name} (${JSON.stringify(value)}) in tool ${JSON.stringify(e.name)} is never filled in: with \`applyDefaults\`, the validator cannot tell an absent ${name} from the member every object inherits from Object.prototype, so toolroute leaves this default out of it, and the handler's argument type keeps ${name} optional.`,
        `Rename the property (e.g. ${JSON.stringify(`${property.replace(/^_+|_+$/g, '') || 'value'}_value`)}), or fill the default in the handler, reading the property only when it is the object's own: \`Object.hasOwn(obj, ${name}) ? obj[${name}] : ${JSON.stringify(value)}\` (\`obj\` is the object that holds it; a plain \`obj[${name}]\` is the inherited member when the model leaves it out).`,
        'key',
        'warning',
        `${e.name}.${property}`,
      );
    }
  }
}
