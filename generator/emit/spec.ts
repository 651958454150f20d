/**
 * `spec.gen.ts`: everything the runtime reads, as readable data (`SpecData`: shared schemas, tools, groups, policies,
 * options), pretty-printed JSON in a fixed order, each tool on a line of its own (its defaults left out), so a change to
 * one tool changes that tool's line only. Each distinct parameter schema is written once in `schemas`, named after the
 * argument type of its first tool, and tools refer to it by that name: large specs share a few schemas among many
 * tools. The runtime's `specFromData` resolves the names, derives the rest (group membership per tool, the neutral and
 * per-target tool definitions) and freezes it all.
 *
 * Why JSON text in `JSON.parse(String.raw`…`)`: V8 scans one string and parses it as JSON faster than it compiles the
 * same data as object literals (at 10,000 tools, a quarter less CPU), TypeScript does not type the text (a
 * 10,000-element array literal hits TS2590), nothing in it is evaluated as code, and a bundler inlines it like any
 * module. String.raw keeps every JSON escape for `JSON.parse`, so the text reads as plain JSON; a backtick or `${`
 * (only possible inside a string) is written as a JSON escape. A JSON module would start faster still, but Node 20
 * warns that JSON modules are experimental on every start of the application.
 */
import type { SpecData, SpecToolData, ToolData } from '../../runtime/contract.js';
import { anthropicKeyPlan } from '../../runtime/targets/property-keys.js';
import { cloneSchema } from '../../runtime/targets/schema.js';
import { nullDecodePlan } from '../../runtime/targets/strict.js';
import { tsString } from './code.js';
import { hasAppliedDefault } from './defaults.js';
import type { EmitContext } from './context.js';
import type { GeneratedFile } from './file.js';

/**
 * The data `spec.gen.ts` writes for a spec. Pure; exported for tests and tools.
 *
 * @example
 * specData(ctx).tools[0]; // { name: 'read_file', description: …, tags: ['file'], deferLoading: false, parameters: 'ReadFileArgs', validator: 0 }
 */
export function specData(ctx: EmitContext): SpecData {
  const { ir } = ctx;
  // Each distinct schema text once, named after the argument type of its first tool.
  const names = new Map<string, string>();
  const schemas = new Map<string, ToolData['parameters']>();
  const schemaName = (i: number): string =>
    mapGet(names, ctx.parameterTexts[i]!, () => {
      const name = ctx.argTypeNames[i]!;
      schemas.set(name, cloneSchema(ir.tools[i]!.parameters));
      return name;
    });
  const tools = ir.tools.map((t, i): SpecToolData => {
    const nullDecode = ir.options.openaiStrict ? nullDecodePlan(t.parameters) : undefined;
    const keyDecode = anthropicKeyPlan(t.parameters);
    return {
      name: t.name,
      description: t.description,
      ...(t.tags.length === 0 ? {} : { tags: t.tags }),
      ...(t.deferLoading ? { deferLoading: true as const } : {}),
      parameters: schemaName(i),
      validator: ctx.validatorOf[i] ?? 0,
      ...(nullDecode === undefined ? {} : { nullDecode }),
      ...(keyDecode === undefined ? {} : { keyDecode }),
      // Only where the validator may write into the arguments, so the runtime copies them for these tools alone.
      ...(ir.options.applyDefaults && hasAppliedDefault(t.parameters) ? { fillsDefaults: true as const } : {}),
    };
  });
  return {
    formatVersion: 1,
    hash: ir.hash,
    openaiStrict: ir.options.openaiStrict,
    // Object.fromEntries: every name an own key, whatever it is.
    schemas: Object.fromEntries(schemas),
    tools,
    flat: ir.flat,
    namespaces: ir.namespaces.map((ns) => ({ name: ns.name, description: ns.description, encoding: ns.encoding, tools: ns.tools })),
    toolkits: ir.toolkits.map((k) => ({ name: k.name, description: k.description, tools: k.tools })),
    // Object.fromEntries keeps any policy name, `__proto__` included, as an own key.
    policies: Object.fromEntries(ir.policies.map((p) => [p.name, p.block])),
    // Only when not the default, so specs that do not set them keep their bytes.
    ...(ir.options.offerUngroupedTools ? {} : { offerUngroupedTools: false as const }),
    ...(ir.options.toolkitLoading === undefined ? {} : { toolkitLoading: ir.options.toolkitLoading }),
  };
}

/**
 * A JSON value as pretty-printed JSON text: objects one member per line (keys in their order), arrays of objects one
 * element per line, arrays of plain values on one line; the records of a list of the outer object (the spec's tools,
 * namespaces, toolkits) one per line (`depth`: 1 for that list, Infinity inside a record). LS and PS written as escapes.
 *
 * @example
 * jsonLines({ tags: ['a', 'b'], n: { x: 1 } }); // '{\n  "tags": ["a", "b"],\n  "n": {\n    "x": 1\n  }\n}'
 * jsonLines({ tools: [{ name: 'a' }] }); // '{\n  "tools": [\n    {"name": "a"}\n  ]\n}'
 */
export function jsonLines(value: unknown, indent = '', depth = 0): string {
  if (typeof value !== 'object' || value === null) return typeof value === 'string' ? tsString(value) : (JSON.stringify(value) ?? 'null');
  const inner = `${indent}  `;
  const oneLine = depth === Infinity;
  if (Array.isArray(value)) {
    if (oneLine || value.every((v) => typeof v !== 'object' || v === null)) return `[${value.map((v) => jsonLines(v, '', Infinity)).join(', ')}]`;
    return `[\n${value.map((v) => inner + jsonLines(v, inner, depth === 1 ? Infinity : depth + 1)).join(',\n')}\n${indent}]`;
  }
  const members = Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => `${tsString(k)}: ${jsonLines(v, inner, oneLine ? Infinity : depth + 1)}`);
  if (members.length === 0) return '{}';
  return oneLine ? `{${members.join(', ')}}` : `{\n${inner}${members.join(`,\n${inner}`)}\n${indent}}`;
}

/**
 * JSON text as the body of a `String.raw` template: a backtick or a `${` can
 * only occur inside a JSON string, so they are written as JSON escapes, which
 * String.raw leaves for `JSON.parse` to decode.
 *
 * @example
 * rawTemplateBody('"a`${b}"'); // '"a\\u0060\\u0024{b}"'
 */
export function rawTemplateBody(json: string): string {
  return json.replace(/`|\$\{/g, (m) => (m === '`' ? '\\u0060' : '\\u0024{'));
}

function mapGet<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) map.set(key, (value = make()));
  return value;
}

/**
 * Emits `spec.gen.ts`.
 *
 * @example
 * emitSpec(ctx)[0].path; // 'spec.gen.ts'
 */
export function emitSpec(ctx: EmitContext): GeneratedFile[] {
  const content = [
    ctx.header,
    `import { specFromData, type GeneratedSpec, type SpecData } from ${tsString(ctx.options.runtimeImport)};`,
    `import type { Registry } from './types.gen.js';`,
    `import { directoryXml } from './directory.gen.js';`,
    `import { validators } from './validators.gen.js';`,
    '',
    '/** The spec as data: shared parameter schemas by name, tools in declaration order, groups, policies, options. */',
    `const data: SpecData = JSON.parse(String.raw\`${rawTemplateBody(jsonLines(specData(ctx)))}\`);`,
    '',
    '/**',
    ' * Everything the runtime reads, deeply frozen: `createRouter(gen, handlers)` takes it from `gen.spec`.',
    ' * `rendered` holds the neutral tool definitions; each target form is rendered from them on first use.',
    ' */',
    'export const spec: GeneratedSpec<Registry> = specFromData<GeneratedSpec<Registry>>(data, { directoryXml, validators });',
  ].join('\n');
  return [{ path: 'spec.gen.ts', content: `${content}\n` }];
}
