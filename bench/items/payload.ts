/**
 * Item 6 — payload size: bytes of the tools array each target receives.
 *
 * - Namespace tools (the default tool set: one tool per namespace + `load_toolkit`):
 *   toolroute in its compact and schema encodings vs the reference's
 *   `getPruner().compile().tools`.
 * - The flat listing of every tool (what the model would see without namespaces):
 *   toolroute's pre-rendered `rendered[form].tools` vs the reference's definitions.
 *
 * The reference passes tools through provider-neutral ("converting to the
 * provider's wire field is your tool-conversion step"), so its per-target bytes
 * use the smallest faithful conversion, in `referenceForTarget` below.
 * Bytes = UTF-8 length of `JSON.stringify(tools)` (no whitespace).
 */
import type { ToolDefinition } from '@context-chef/core';
import { RENDER_FORMS, type RenderForm } from '../../runtime/contract.js';
import { check, fmtBytes, fmtRatio, verdict, type Section, type Verdict } from '../lib.js';
import type { Loaded } from '../setup.js';
import type { SpecTool } from '../make-spec.js';

const bytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v), 'utf8');

/** The smallest faithful conversion of the reference's neutral tools to a target's wire shape. */
export function referenceForTarget(form: RenderForm, tools: readonly ToolDefinition[]): unknown {
  const params = (t: ToolDefinition) => t.parameters ?? { type: 'object', properties: {} };
  switch (form) {
    case 'neutral':
      return tools;
    case 'anthropic':
      return tools.map((t) => ({ name: t.name, description: t.description, input_schema: params(t), ...(t.deferLoading ? { defer_loading: true } : {}) }));
    case 'openai':
      return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: params(t) } }));
    case 'openai-responses':
      return tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: params(t), strict: false, ...(t.deferLoading ? { defer_loading: true } : {}) }));
    case 'gemini':
      return [{ functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: params(t) })) }];
  }
}

/** The tools array of a toolroute compile result for one form. */
function toolrouteTools(l: Loaded, form: RenderForm): unknown {
  if (form === 'neutral') return l.router.compile().tools;
  const out = l.router.compile({ target: form, messages: [] }) as { tools?: unknown; config?: { tools?: unknown } };
  const tools = form === 'gemini' ? out.config?.tools : out.tools;
  check(`${l.made.id}: compile({ target: '${form}' }) has a tools array`, Array.isArray(tools));
  return tools;
}

/** Every tool of a spec, full schemas, in generated order (the reference's flat listing). */
function allDefinitions(l: Loaded): ToolDefinition[] {
  return l.gen.spec.tools.map((t) => {
    const def = l.ref.defs.get(t.name) as SpecTool;
    const out: ToolDefinition = { name: def.name, description: def.description, parameters: def.parameters };
    if (def.deferLoading) out.deferLoading = true;
    return out;
  });
}

/**
 * Check that a compact namespace tool carries, for each action, every top-level
 * argument name and every enum value (types and requiredness are checked by
 * the emitter's own tests; here we guard against a payload that is small
 * because it dropped information).
 */
function checkCarries(l: Loaded): void {
  const neutral = l.router.compile().tools as readonly { name: string }[];
  for (const ns of l.made.spec.namespaces ?? []) {
    const tool = neutral.find((t) => t.name === ns.name);
    check(`${l.made.id}: namespace ${ns.name} present`, tool !== undefined);
    const text = JSON.stringify(tool);
    for (const e of ns.tools) {
      const name = typeof e === 'string' ? e : e.name;
      const def = l.ref.defs.get(name) as SpecTool;
      check(`${l.made.id}: ${ns.name} names action ${name}`, text.includes(name));
      const props = (def.parameters['properties'] ?? {}) as Record<string, { enum?: unknown[] }>;
      for (const [prop, schema] of Object.entries(props)) {
        check(`${l.made.id}: ${ns.name}.${name} carries argument ${prop}`, text.includes(prop));
        for (const v of schema.enum ?? []) check(`${l.made.id}: ${ns.name}.${name}.${prop} carries enum value ${String(v)}`, text.includes(String(v)));
      }
    }
  }
}

/**
 * Name the tools (and their bytes, per form) that the spec's own options add to
 * the like-for-like tools array, so the info column's extra bytes are explained.
 */
function extraTools(likeForLike: Loaded, asShipped: Loaded): string {
  const parts: string[] = [];
  for (const form of RENDER_FORMS) {
    const names = (tools: unknown): Map<string, number> => {
      const list = (form === 'gemini' ? ((tools as { functionDeclarations?: unknown[] }[])[0]?.functionDeclarations ?? []) : (tools as unknown[])) as Record<string, unknown>[];
      return new Map(list.map((t) => [String(t['name'] ?? (t['function'] as { name?: string } | undefined)?.name ?? t['type']), bytes(t)]));
    };
    const base = names(toolrouteTools(likeForLike, form));
    const shipped = names(toolrouteTools(asShipped, form));
    const extra = [...shipped].filter(([n]) => !base.has(n));
    const gone = [...base.keys()].filter((n) => !shipped.has(n));
    parts.push(`${form} +${extra.map(([n, b]) => `${n} (${fmtBytes(b)})`).join(', ') || 'nothing'}${gone.length > 0 ? ` −${gone.join(', ')}` : ''}`);
  }
  return `${parts.join('; ')}. The flat tool is offered because the spec does not set \`offerUngroupedTools: false\`; the rest is native toolkit loading (deferred tools, \`tool_search\`, \`call_toolkit_tool\`), which keeps the tools array unchanged when a toolkit loads (README, "Toolkit loading strategies").`;
}

/** One spec in both encodings. */
export interface PayloadPair {
  readonly label: string;
  readonly compact: Loaded;
  readonly schema: Loaded;
  /**
   * The same spec with its own options, when those differ from the like-for-like
   * ones (`offerUngroupedTools: false`, `toolkitLoading: 'append'`): its default
   * tools array is reported as information, with what the extra bytes are.
   */
  readonly asShipped?: Loaded;
}

/**
 * Run item 6.
 *
 * @example
 * benchPayload([{ label: 'example', compact, schema }, { label: '1,000 tools', compact: c1000, schema: s1000 }]);
 */
export function benchPayload(pairs: readonly PayloadPair[]): Section {
  const rows: string[][] = [];
  const verdicts: Verdict[] = [];
  const notes: string[] = [];
  for (const p of pairs) {
    checkCarries(p.compact);
    const refNs = p.compact.ref.chef.getPruner().compile().tools;
    const defs = allDefinitions(p.compact);
    let worst = 0;
    for (const form of RENDER_FORMS) {
      const compact = bytes(toolrouteTools(p.compact, form));
      const schema = bytes(toolrouteTools(p.schema, form));
      const ref = bytes(referenceForTarget(form, refNs));
      const flat = bytes(p.compact.gen.spec.rendered[form].tools);
      const refFlat = bytes(referenceForTarget(form, defs));
      worst = Math.max(worst, compact / ref);
      const shipped = p.asShipped ? fmtBytes(bytes(toolrouteTools(p.asShipped, form))) : 'same';
      rows.push([p.label, form, fmtBytes(compact), fmtBytes(schema), fmtBytes(ref), fmtRatio(compact / ref), shipped, fmtBytes(flat), fmtBytes(refFlat)]);
    }
    if (p.asShipped) notes.push(`${p.label}, its own options: ${extraTools(p.compact, p.asShipped)}`);
    verdicts.push(verdict(`${p.label}: compact namespace tools ≤ reference (every target)`, `worst ${fmtRatio(worst)}`, worst <= 1));
    const spec = p.compact.gen.spec;
    notes.push(`${p.label}: ${spec.tools.length} tools share ${spec.validators.length} validators; ${spec.namespaces.length} namespaces, ${spec.toolkits.length} toolkits.`);
  }
  return {
    title: '6. Payload size (bytes of the tools array)',
    header: ['spec', 'form', 'toolroute ns tools, compact', 'toolroute ns tools, schema', 'reference ns tools', 'compact ÷ reference', "toolroute, the spec's own options (info)", 'flat listing, toolroute', 'flat listing, reference'],
    rows,
    verdicts,
    notes: [
      ...notes,
      "The reference's namespace tools list each argument's name, type and description in prose, without requiredness or enum values; " +
        'toolroute\'s compact encoding was checked (before measuring) to carry every action, argument name and enum value. ' +
        "Reference per-target bytes use the smallest faithful conversion of its neutral tools (bench/items/payload.ts `referenceForTarget`).",
      'Like for like, both toolroute columns use `offerUngroupedTools: false` and `toolkitLoading: \'append\'`: the reference\'s `compile()` sends namespace tools and the toolkit loader only. ' +
        "The info column is the default tools array with the spec's own options: what a user of that spec sends, including what toolroute adds on purpose.",
    ],
  };
}
