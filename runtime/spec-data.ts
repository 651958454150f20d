/**
 * From a generated `spec.gen.ts` (`SpecData`: readable data) to the frozen `GeneratedSpec` the router reads. What the
 * data would say twice is derived here (group membership, neutral tools, by runtime/neutral.ts); target forms are
 * rendered on first read, so an application that talks to one provider never pays for the other three.
 */
import { TARGETS, type GeneratedSpec, type GeneratedTool, type RenderedTools, type RenderForm, type SpecData, type Target, type ToolDefinition, type ValidateFn } from './contract.js';
import { deepFreeze } from './freeze.js';
import { neutralLoaderTool, neutralNamespaceTool } from './neutral.js';
import { renderTool, type NeutralTool, type RenderOptions } from './targets/index.js';

/** What lazy rendering reads from a generated spec. */
export interface RenderSource {
  readonly rendered: { readonly neutral: RenderedTools };
}

/** The renderer's input for a neutral definition: the `NeutralTool` it was rendered from. */
function neutralInput(kind: NeutralTool['kind'], definition: unknown): NeutralTool {
  const d = definition as ToolDefinition;
  return { kind, name: d.name, description: d.description, parameters: (d.parameters ?? {}) as NeutralTool['parameters'], deferLoading: d.deferLoading === true };
}

/**
 * Render one target form of a spec from its neutral definitions. Pure.
 * @example
 * renderForm(spec, 'anthropic', { openaiStrict: false }).tools[0]; // { name: 'read_file', description: …, input_schema: … }
 */
export function renderForm(source: RenderSource, form: Target, options: RenderOptions): RenderedTools {
  const neutral = source.rendered.neutral;
  return {
    tools: neutral.tools.map((t) => renderTool(form, neutralInput('tool', t), options)),
    namespaces: neutral.namespaces.map((n) => renderTool(form, neutralInput('namespace', n), options)),
    loader: neutral.loader === null ? null : renderTool(form, neutralInput('loader', neutral.loader), options),
  };
}

/**
 * `spec.rendered`: `neutral` as given, each target form rendered on its first read, frozen, then kept.
 * @example
 * const rendered = lazyRendered({ rendered: { neutral } }, { openaiStrict: false });
 * rendered.anthropic.tools; // rendered now, the same array on every later read
 */
export function lazyRendered(source: RenderSource, options: RenderOptions): { readonly [F in RenderForm]: RenderedTools } {
  const out: Record<string, unknown> = { neutral: deepFreeze(source.rendered.neutral) };
  const frozenOptions = Object.freeze({ ...options });
  for (const form of TARGETS) {
    let cached: RenderedTools | undefined;
    Object.defineProperty(out, form, { enumerable: true, get: () => (cached ??= deepFreeze(renderForm(source, form, frozenOptions))) });
  }
  return Object.freeze(out) as { readonly [F in RenderForm]: RenderedTools };
}

/** The shared empty list: of a tool in no group, of a tool without tags. */
const NONE: readonly never[] = Object.freeze([]);

/** Per tool, the indices of the groups listing it, ascending (a tool listed twice in one group: once), frozen. */
function membership(count: number, groups: readonly { readonly tools: readonly number[] }[]): (readonly number[])[] {
  // Lists are shared: the empty one, and one per group for the tools in that group alone (most tools of a large spec).
  const out: (readonly number[])[] = new Array<readonly number[]>(count).fill(NONE);
  groups.forEach((group, k) => {
    const alone = Object.freeze([k]);
    for (const t of group.tools) {
      const list = out[t]!;
      if (list === NONE) out[t] = alone;
      else if (list[list.length - 1] !== k) out[t] = Object.freeze([...list, k]);
    }
  });
  return out;
}

/**
 * The `GeneratedSpec` of a generated folder: `data` (the parts it exposes frozen in place) plus what is derived from it. Called once by the
 * generated `spec.gen.ts`; throws, naming the fix, on data of another format version.
 * @example
 * export const spec = specFromData<GeneratedSpec<Registry>>(data, { directoryXml, validators });
 */
export function specFromData<S extends GeneratedSpec = GeneratedSpec>(data: SpecData, parts: { readonly directoryXml: string; readonly validators: readonly ValidateFn[] }): S {
  if (data?.formatVersion !== 1) {
    throw new TypeError(`toolroute: this generated folder's spec data has format version ${String(data?.formatVersion)}; this runtime reads 1. Regenerate the folder (npx toolroute codegen).`);
  }
  // Frozen in place: the parts the spec exposes as they are (each tool record is copied, and its copy frozen, below).
  for (const part of [data.schemas, data.flat, data.namespaces, data.toolkits, data.policies]) deepFreeze(part);
  const count = data.tools.length;
  const isFlat = new Uint8Array(count);
  for (const t of data.flat) isFlat[t] = 1;
  const namespacesOf = membership(count, data.namespaces);
  const toolkitsOf = membership(count, data.toolkits);
  const tools = data.tools.map((t, i): GeneratedTool => {
    if (!Object.hasOwn(data.schemas, t.parameters)) {
      throw new TypeError(`toolroute: this generated folder's spec data names the schema ${JSON.stringify(t.parameters)} for tool ${JSON.stringify(t.name)} but does not define it. Regenerate the folder (npx toolroute codegen).`);
    }
    const { nullDecode, keyDecode, fillsDefaults } = t;
    return Object.freeze({
      name: t.name, description: t.description, tags: t.tags === undefined ? NONE : Object.freeze(t.tags), deferLoading: t.deferLoading === true,
      parameters: data.schemas[t.parameters]!, validator: t.validator, flat: isFlat[i] === 1, namespaces: namespacesOf[i]!, toolkits: toolkitsOf[i]!,
      ...(nullDecode && { nullDecode: deepFreeze(nullDecode) }), ...(keyDecode && { keyDecode: deepFreeze(keyDecode) }), ...(fillsDefaults && { fillsDefaults }),
    });
  });
  const options = Object.freeze({ openaiStrict: data.openaiStrict });
  let neutralTools: readonly unknown[] | undefined;
  let namespaces: readonly unknown[] | undefined;
  // Rendered on first read (a compile, a prune, a rejection that shows a definition): dispatch reads none of them.
  const neutral: RenderedTools = Object.freeze({
    get tools() {
      // Frozen shallowly: the schemas are frozen already.
      return (neutralTools ??= Object.freeze(tools.map(({ name, description, parameters, deferLoading }) => Object.freeze(deferLoading ? { name, description, parameters, deferLoading } : { name, description, parameters }))));
    },
    get namespaces() {
      return (namespaces ??= deepFreeze(data.namespaces.map((ns) => renderTool('neutral', neutralNamespaceTool(ns, ns.tools.map((t) => tools[t]!), ns.encoding), options))));
    },
    loader: data.toolkits.length === 0 ? null : deepFreeze(renderTool('neutral', neutralLoaderTool(data.toolkits.map((k) => k.name)), options)),
  });
  return deepFreeze({
    formatVersion: 1, hash: data.hash, tools,
    flat: data.flat, namespaces: data.namespaces, toolkits: data.toolkits, policies: data.policies,
    directoryXml: parts.directoryXml, validators: parts.validators,
    rendered: lazyRendered({ rendered: { neutral } }, options),
    ...(data.offerUngroupedTools === false ? { offerUngroupedTools: false as const } : {}),
    ...(data.toolkitLoading === undefined ? {} : { toolkitLoading: data.toolkitLoading }),
  }) as unknown as S;
}
