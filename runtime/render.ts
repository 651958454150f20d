/**
 * Per-target rendering of one provider-neutral tool definition.
 *
 * Used by the generator at codegen time and by the runtime for tools registered at run time.
 * OWNER: the per-target compile work (issue 4). This first version is a
 * placeholder with the final signature: it returns the neutral form for every
 * target so the emitters can be built against it.
 */
import type { RenderForm } from './contract.js';
/** A JSON Schema object. */
export type JsonSchema = { readonly [key: string]: unknown };

/** A tool as the model sees it, before any target's rules are applied. */
export interface NeutralTool {
  /** What this definition is: a spec tool, a namespace tool, or `load_toolkit`. */
  readonly kind: 'tool' | 'namespace' | 'loader';
  readonly name: string;
  readonly description: string;
  /** `type: "object"` schema, local refs already inlined. */
  readonly parameters: JsonSchema;
  readonly deferLoading: boolean;
}

export interface RenderOptions {
  /** From the spec's `options.openaiStrict`. */
  readonly openaiStrict: boolean;
}

/**
 * Render one tool for one form. Pure; the result is serialized into the
 * generated folder and frozen there.
 *
 * @example
 * renderTool('anthropic', { kind: 'tool', name: 'get_time', description: 'Get timestamp',
 *   parameters: { type: 'object', properties: {} }, deferLoading: false }, { openaiStrict: false });
 */
export function renderTool(form: RenderForm, tool: NeutralTool, _options: RenderOptions): unknown {
  void form;
  const out: Record<string, unknown> = { name: tool.name, description: tool.description, parameters: tool.parameters };
  if (tool.deferLoading) out['deferLoading'] = true;
  return out;
}
