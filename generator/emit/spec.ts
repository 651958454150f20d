/**
 * `spec.gen.ts`: everything the runtime reads, as readable data (`SpecData`:
 * tools, groups, policies, options) written as TypeScript object literals,
 * one field per line in a fixed order, so a change to one tool changes that
 * tool's lines only. Each distinct parameter schema is written once, as a
 * constant named after the argument type of its first tool (`ReadFileArgs` →
 * `ReadFileArgsSchema`), and the tools that share it refer to it: large specs
 * share a few schemas among many tools. The runtime's `specFromData` derives
 * the rest (group membership per tool, the neutral and per-target tool
 * definitions) and freezes it all.
 */
import type { SpecData, ToolData } from '../../runtime/contract.js';
import { anthropicKeyPlan } from '../../runtime/targets/property-keys.js';
import { cloneSchema } from '../../runtime/targets/schema.js';
import { nullDecodePlan } from '../../runtime/targets/strict.js';
import { propertyKey, tsString } from './code.js';
import { hasAppliedDefault } from './defaults.js';
import type { EmitContext } from './context.js';
import type { GeneratedFile } from './file.js';

/**
 * The data `spec.gen.ts` writes for a spec. Pure; exported for tests and tools.
 *
 * @example
 * specData(ctx).tools[0]; // { name: 'read_file', description: …, tags: ['file'], deferLoading: false, parameters: {…}, validator: 0 }
 */
export function specData(ctx: EmitContext): SpecData {
  const { ir } = ctx;
  // One object per distinct schema text, shared by the tools that have it.
  const schemas = new Map<string, ToolData['parameters']>();
  return {
    formatVersion: 1,
    hash: ir.hash,
    openaiStrict: ir.options.openaiStrict,
    tools: ir.tools.map((t, i): ToolData => {
      const nullDecode = ir.options.openaiStrict ? nullDecodePlan(t.parameters) : undefined;
      const keyDecode = anthropicKeyPlan(t.parameters);
      return {
        name: t.name,
        description: t.description,
        tags: t.tags,
        deferLoading: t.deferLoading,
        // The neutral definition's copy of the schema (what `renderTool('neutral', …)` ships).
        parameters: mapGet(schemas, ctx.parameterTexts[i]!, () => cloneSchema(t.parameters)),
        validator: ctx.validatorOf[i] ?? 0,
        ...(nullDecode === undefined ? {} : { nullDecode }),
        ...(keyDecode === undefined ? {} : { keyDecode }),
        // Only where the validator may write into the arguments, so the runtime copies them for these tools alone.
        ...(ir.options.applyDefaults && hasAppliedDefault(t.parameters) ? { fillsDefaults: true as const } : {}),
      };
    }),
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
 * A JSON value as a TypeScript literal: objects one member per line (keys in
 * their order, bare when they are identifiers), arrays of objects one element
 * per line, arrays of plain values on one line; an object listed in `names`
 * as that name. A `__proto__` key is written computed (`["__proto__"]`):
 * written plainly it would set the prototype.
 *
 * @example
 * tsLiteral({ tags: ['a', 'b'], n: { x: 1 } }); // '{\n  tags: ["a", "b"],\n  n: {\n    x: 1\n  }\n}'
 * tsLiteral({ p: schema }, '', new Map([[schema, 'ReadFileArgsSchema']])); // '{\n  p: ReadFileArgsSchema\n}'
 */
export function tsLiteral(value: unknown, indent = '', names?: ReadonlyMap<unknown, string>): string {
  if (typeof value !== 'object' || value === null) return typeof value === 'string' ? tsString(value) : (JSON.stringify(value) ?? 'null');
  const name = names?.get(value);
  if (name !== undefined) return name;
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v !== 'object' || v === null)) return `[${value.map((v) => tsLiteral(v)).join(', ')}]`;
    return `[\n${value.map((v) => inner + tsLiteral(v, inner, names)).join(',\n')}\n${indent}]`;
  }
  const members = Object.entries(value).filter(([, v]) => v !== undefined);
  if (members.length === 0) return '{}';
  const key = (k: string) => (k === '__proto__' ? `[${tsString(k)}]` : propertyKey(k));
  return `{\n${members.map(([k, v]) => `${inner}${key(k)}: ${tsLiteral(v, inner, names)}`).join(',\n')}\n${indent}}`;
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
  const data = specData(ctx);
  // Each distinct schema once, in order of first use, named after its first tool's argument type.
  const names = new Map<unknown, string>();
  data.tools.forEach((t, i) => mapGet(names, t.parameters, () => `${ctx.argTypeNames[i]}Schema`));
  const content = [
    ctx.header,
    `import { specFromData, type GeneratedSpec, type SpecData, type ToolData } from ${tsString(ctx.options.runtimeImport)};`,
    `import type { Registry } from './types.gen.js';`,
    `import { directoryXml } from './directory.gen.js';`,
    `import { validators } from './validators.gen.js';`,
    '',
    ...[...names].map(([schema, name]) => `const ${name}: ToolData['parameters'] = ${tsLiteral(schema)};\n`),
    // One statement per tool, each checked against `ToolData`: as elements of one array literal, TypeScript
    // would reduce the union of their 10,000 types (and give up: TS2590).
    '/** The tools, in declaration order, each with its parameter schema and the index of its validator. */',
    'const tools: ToolData[] = [];',
    ...data.tools.map((tool) => `tools.push(${tsLiteral(tool, '', names)});`),
    '',
    '/** The spec as data: tools, groups, policies, options. */',
    `const data: SpecData = ${tsLiteral(data, '', new Map([...names, [data.tools, 'tools']]))};`,
    '',
    '/**',
    ' * Everything the runtime reads, deeply frozen: `createRouter(gen, handlers)` takes it from `gen.spec`.',
    ' * `rendered` holds the neutral tool definitions; each target form is rendered from them on first use.',
    ' */',
    'export const spec: GeneratedSpec<Registry> = specFromData<GeneratedSpec<Registry>>(data, { directoryXml, validators });',
  ].join('\n');
  return [{ path: 'spec.gen.ts', content: `${content}\n` }];
}
