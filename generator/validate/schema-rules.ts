/**
 * Per-keyword rules for a `parameters` schema, walked over every subschema (never over data such as
 * `enum` values): known keywords, refused keywords, type names, formats, patterns, `required` names, `$ref`s.
 */
import { didYouMean } from '../problems.js';
import type { ProblemCode } from '../problems.js';
import { COMMA_HINT, isRecord, listAt } from './context.js';
import { checkRef } from './schema-refs.js';
import { declaredTypes, hasType, JSON_TYPES, KNOWN_FORMATS, knownKeywords, SCHEMA_KEYWORDS, SCHEMA_LIST_KEYWORDS, SCHEMA_MAP_KEYWORDS, UNSUPPORTED_KEYWORDS } from './schema-keywords.js';
import type { SchemaDialect, SchemaProblem } from './schema-keywords.js';

/**
 * Type names from function-calling datasets, Python and TypeScript, with
 * their JSON Schema spelling (a hint, never a silent rewrite: the spec says
 * what it means).
 */
const FOREIGN_TYPES: Readonly<Record<string, string>> = {
  dict: '`type: object`', map: '`type: object`', mapping: '`type: object`', record: '`type: object`', struct: '`type: object`',
  float: '`type: number`', double: '`type: number`', decimal: '`type: number`', int: '`type: integer`', long: '`type: integer`', int32: '`type: integer`', int64: '`type: integer`',
  str: '`type: string`', text: '`type: string`', bool: '`type: boolean`', list: '`type: array`', tuple: '`type: array` with `prefixItems: [...]` (one schema per position) and `items: false`',
  any: 'no `type` at all (leave `type` out: every value is allowed)', none: '`type: "null"`', nonetype: '`type: "null"`', undefined: '`type: "null"` or leaving the property out',
};

/**
 * Why ajv cannot compile `pattern` (its engine: `new RegExp(pattern, 'u')`), or undefined when it can.
 *
 * @example
 * patternError('^a+$'); // → undefined
 * patternError('(');    // → 'Invalid regular expression: /(/u: Unterminated group'
 */
export function patternError(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/** The path to the first key named `__proto__` inside JSON data, or undefined. */
function protoKeyPath(data: unknown, at: (string | number)[]): (string | number)[] | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  for (const [key, item] of Object.entries(data)) {
    const here = [...at, Array.isArray(data) ? Number(key) : key];
    if (key === '__proto__' && !Array.isArray(data)) return here;
    const inner = protoKeyPath(item, here);
    if (inner) return inner;
  }
  return undefined;
}

const PATTERN_HINT = 'JSON Schema patterns are JavaScript regular expressions with the `u` (Unicode) flag, where escaping a character that needs no escape (`\\_`, or `\\-` outside `[...]`) is an error too. In YAML, a single-quoted string keeps backslashes as written.';

/**
 * Checks one schema object and its subschemas (but not data such as enum
 * values or defaults), adding problems with spec paths (`toSpec`).
 *
 * @example
 * walkSchema({ type: 'strng' }, [], '2020-12', root, problems, (p) => p); // invalid_schema: Did you mean "string"?
 */
export function walkSchema(node: unknown, path: (string | number)[], dialect: SchemaDialect, root: Record<string, unknown>, problems: SchemaProblem[], toSpec: (p: (string | number)[]) => (string | number)[]): void {
  if (!isRecord(node)) return; // booleans are schemas; other values are left to the meta-schema
  const known = knownKeywords(dialect);
  const add = (code: ProblemCode, p: (string | number)[], message: string, hint: string, at: 'value' | 'key' = 'value') =>
    problems.push({ code, path: toSpec(p), message, hint, at });

  for (const [key, value] of Object.entries(node)) {
    const here = [...path, key];
    if (UNSUPPORTED_KEYWORDS.has(key)) {
      add('unsupported_schema_keyword', here, `the keyword ${JSON.stringify(key)} belongs to draft 2019-09, which toolroute does not read.`,
        'Use the draft 2020-12 forms: `$dynamicAnchor` instead of `$recursiveAnchor: true`, `$dynamicRef: "#name"` instead of `$recursiveRef: "#"`.', 'key');
      continue;
    }
    if (!known.has(key)) {
      const other = knownKeywords(dialect === '2020-12' ? 'draft-07' : '2020-12').has(key);
      if (value === null && /\s/.test(key)) {
        add('unknown_schema_keyword', here, `unknown JSON Schema keyword ${JSON.stringify(key)} (with no value).`, COMMA_HINT, 'key');
        continue;
      }
      if (key === 'nullable') {
        add('unknown_schema_keyword', here, 'JSON Schema has no keyword "nullable" (it is OpenAPI\'s).',
          'Removing it alone would refuse null: allow null in the type instead, `type: [string, "null"]` (quote "null": unquoted, YAML reads it as null itself).', 'key');
        continue;
      }
      if (key === 'optional') {
        add('unknown_schema_keyword', here, 'JSON Schema has no keyword "optional".',
          'Properties are optional unless the object that holds them lists them in `required: [...]`: remove `optional` here, and list the properties that must be present under `required` of the enclosing object.', 'key');
        continue;
      }
      const suggestion = didYouMean(key, known);
      add('unknown_schema_keyword', here, `unknown JSON Schema keyword ${JSON.stringify(key)}${other ? ` (it belongs to ${dialect === '2020-12' ? 'draft-07' : 'draft 2020-12'})` : ''}.`,
        other
          ? `Use the ${dialect} form${key === 'dependencies' ? ' (`dependentRequired` / `dependentSchemas`)' : key === 'additionalItems' ? ' (`items` after `prefixItems`)' : ''}, or declare the dialect with \`$schema\`.`
          : `${suggestion ? `${suggestion} ` : ''}Unknown keywords are refused because providers reject or ignore them; remove it or fix its spelling.`,
        'key');
      continue;
    }
    switch (key) {
      case '$schema':
        // One dialect per schema, declared at its top (`parameters` / `returns`); below it, a `$schema` would be kept and sent.
        if (path.length > 0) add('unsupported_schema_dialect', here, 'a `$schema` below the top of the schema: toolroute reads one dialect per schema, the one declared at its top.', 'Remove it here; declare the dialect once, as `$schema` at the top of `parameters` (or `returns`).', 'key');
        break;
      case 'type': {
        const types = Array.isArray(value) ? value : [value];
        types.forEach((t, i) => {
          if (t === null) {
            add('invalid_schema', Array.isArray(value) ? [...here, i] : here, 'this type is null itself, not the type name "null": unquoted, YAML reads `null` as no value.', 'Quote it: `"null"` (for example `type: [string, "null"]`).');
          } else if (typeof t === 'string' && !(JSON_TYPES as readonly string[]).includes(t)) {
            const spelling = FOREIGN_TYPES[t.toLowerCase()];
            const suggestion = spelling === undefined ? didYouMean(t, JSON_TYPES) : `In JSON Schema this is ${spelling}.`;
            add('invalid_schema', Array.isArray(value) ? [...here, i] : here, `${JSON.stringify(t)} is not a JSON Schema type.`,
              `${suggestion ? `${suggestion} ` : ''}Types are: ${JSON_TYPES.join(', ')}.`);
          }
        });
        break;
      }
      case 'format':
        // In 2020-12 `format` is an annotation: an unknown one is kept (providers pass it to the
        // model) and not checked, so it warns rather than refusing a spec someone else wrote.
        if (typeof value === 'string' && !KNOWN_FORMATS.includes(value)) {
          const suggestion = didYouMean(value, KNOWN_FORMATS);
          problems.push({ code: 'unknown_format', path: toSpec(here), at: 'value', severity: 'warning',
            message: `${JSON.stringify(value)} is not a format toolroute checks: it stays in the schema as an annotation, and arguments are not validated against it.`,
            hint: `${suggestion ? `${suggestion} ` : ''}Formats toolroute checks: ${KNOWN_FORMATS.join(', ')}. To check anything else use \`pattern\`; to silence this, remove \`format\` or say it in the description.` });
        }
        break;
      case 'enum':
        if (Array.isArray(value) && value.length === 0) {
          add('invalid_schema', here, '`enum: []` matches no value, so no call of this tool could ever be valid.',
            'List the allowed values under `enum`, or remove the property (write `false` as its schema if it must never be sent).');
        }
      // falls through: an enum value is data as a const is
      case 'const': {
        // A value no declared `type` admits can never be sent (YAML reads `enum: [10, 20]` as numbers under `type: string`).
        const types = declaredTypes(node) ?? [];
        const values = key === 'enum' ? (Array.isArray(value) ? value : []) : [value];
        if (types.length > 0 && values.length > 0 && !values.some((v) => types.some((t) => hasType(v, t)))) {
          add('invalid_schema', here, `${key === 'enum' ? 'no `enum` value is' : 'the `const` value is not'} of the declared \`type\` (${types.join(', ')}), so no value is ever valid here.`,
            key === 'enum' ? 'Quote the values if they are strings (`enum: ["10", "20"]`: YAML reads 10 as a number), or change `type` to the values\' type.' : 'Quote the value if it is a string (YAML reads 10 as a number), or change `type` to the value\'s type.');
        }
      }
      // falls through: a default is data too, which the validator writes as a JavaScript object literal (`applyDefaults`)
      case 'default': {
        const proto = protoKeyPath(value, here);
        if (proto) add('invalid_schema', proto, `${key === 'enum' ? 'an' : 'a'} \`${key}\` value has a key named "__proto__": the validator's JavaScript would read it as the object's prototype, not as a key, and ${key === 'default' ? 'fill in an object without it' : 'accept other values'}.`,
          'Rename the key in the value. (A property named "__proto__" under `properties` is fine.)', 'key');
        break;
      }
      case 'required':
        if (typeof value === 'boolean') {
          add('invalid_schema', here, '`required` is a list of property names on the object, not a flag on a property (that was JSON Schema draft 3).',
            'Remove `required: true` here and list this property\'s name under `required: [...]` of the object that holds it.');
          break;
        }
        // `required` constrains objects only: beside a `type` without `object` it is a property's own list, written one level too deep.
        const types = declaredTypes(node) ?? [];
        if (Array.isArray(value) && value.length > 0 && types.length > 0 && !types.includes('object')) {
          add('invalid_schema', here, `\`required\` lists property names of an object, and this schema's \`type\` (${types.join(', ')}) is not one, so it requires nothing.`,
            'List the name under `required: [...]` of the object that holds this property (draft 3 marked a property required on the property itself).');
          break;
        }
        if (Array.isArray(value) && isRecord(node.properties) && !isRecord(node.patternProperties)) {
          const props = Object.keys(node.properties);
          value.forEach((name, i) => {
            if (typeof name === 'string' && !props.includes(name)) {
              const suggestion = didYouMean(name, props);
              add('required_not_in_properties', [...here, i], `${JSON.stringify(name)} is required but is not one of the properties (${props.map((p) => JSON.stringify(p)).join(', ') || 'none'}).`,
                `${suggestion ? `${suggestion} ` : ''}List under \`required\` only names that appear under \`properties\` (some providers reject the request otherwise).`);
            }
          });
        }
        break;
      case 'pattern': {
        const error = typeof value === 'string' ? patternError(value) : undefined;
        if (error !== undefined) add('invalid_schema', here, `this pattern does not compile: ${error}.`, PATTERN_HINT);
        break;
      }
      case '$ref':
      case '$dynamicRef':
        if (typeof value === 'string') checkRef(value, here, root, add);
        break;
      case '$vocabulary':
        problems.push({ code: 'unsupported_schema_keyword', path: toSpec(here), at: 'key', severity: 'warning',
          message: '`$vocabulary` only means something in a meta-schema; it is ignored here.', hint: 'Remove it.' });
        break;
      case 'items':
      case 'additionalItems':
        if (Array.isArray(value) && key === 'items' && dialect === '2020-12') {
          add('invalid_schema', here, '`items` as a list is the draft-07 tuple form; draft 2020-12 (the default) needs one schema here.',
            'Write `prefixItems: [...]` for a tuple (and `items: false` instead of `additionalItems: false`), or declare draft-07 with `$schema: "http://json-schema.org/draft-07/schema#"`.');
        } else if (Array.isArray(value)) value.forEach((s, i) => walkSchema(s, [...here, i], dialect, root, problems, toSpec));
        else walkSchema(value, here, dialect, root, problems, toSpec);
        break;
      case 'dependencies':
        if (isRecord(value)) for (const [k, s] of Object.entries(value)) if (!Array.isArray(s)) walkSchema(s, [...here, k], dialect, root, problems, toSpec);
        break;
      default:
        if (SCHEMA_KEYWORDS.has(key)) walkSchema(value, here, dialect, root, problems, toSpec);
        else if (SCHEMA_LIST_KEYWORDS.has(key)) listAt(value).forEach((s, i) => walkSchema(s, [...here, i], dialect, root, problems, toSpec));
        else if (SCHEMA_MAP_KEYWORDS.has(key) && isRecord(value)) {
          for (const [k, s] of Object.entries(value)) {
            const error = key === 'patternProperties' ? patternError(k) : undefined;
            if (error !== undefined) add('invalid_schema', [...here, k], `this property pattern does not compile: ${error}.`, PATTERN_HINT, 'key');
            // `properties: { path: string }`: the shorthand's habit (a type name per property) inside a full schema.
            const named = typeof s === 'string' && (JSON_TYPES as readonly string[]).includes(s);
            if (key === 'properties' && typeof s === 'string') add('invalid_schema', [...here, k], `${JSON.stringify(s)} is ${named ? 'a type name' : 'a string'}, not a schema: each property under \`properties\` takes a schema.`, `Write \`${k}: { type: ${named ? s : 'string'} }\`.`);
            walkSchema(s, [...here, k], dialect, root, problems, toSpec);
          }
        }
    }
  }
}
