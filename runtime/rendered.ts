/**
 * The per-target tool sets of a generated spec, rendered on first use.
 *
 * A generated folder ships its tools once, in the provider-neutral form; the
 * four target forms (`spec.rendered.anthropic`, …) are rendered from it by the
 * same `renderTool` the generator uses, the first time each is read, then
 * deeply frozen and kept. An application that talks to one provider never
 * pays (in start-up time or memory) for the other three, and a 10,000-tool
 * module no longer carries five copies of every definition.
 *
 * Same bytes as eager rendering: the input of every renderer is rebuilt from
 * the neutral definitions field for field (`kind`, `name`, `description`,
 * `parameters`, `deferLoading`: all a `NeutralTool` has), and the generator
 * checks, for every spec it writes, that rendering from the shipped data gives
 * exactly the bytes of rendering from its own definitions (see
 * generator/emit/spec.ts); a test compares the result with recorded payloads.
 */
import { TARGETS, type RenderedTools, type RenderForm, type Target, type ToolDefinition } from './contract.js';
import { renderTool, type NeutralTool, type RenderOptions } from './targets/index.js';
import { deepFreeze } from './freeze.js';

/** What lazy rendering reads from a generated spec's data. */
export interface RenderSource {
  readonly rendered: { readonly neutral: RenderedTools };
}

/** The renderer's input for a neutral definition: the `NeutralTool` it was rendered from. */
function neutralInput(kind: NeutralTool['kind'], definition: unknown): NeutralTool {
  const d = definition as ToolDefinition;
  return {
    kind,
    name: d.name,
    description: d.description,
    parameters: (d.parameters ?? {}) as NeutralTool['parameters'],
    deferLoading: d.deferLoading === true,
  };
}

/**
 * Render one target form of a spec from its neutral definitions. Pure.
 *
 * @example
 * renderForm(data, 'anthropic', { openaiStrict: false }).tools[0]; // { name: 'read_file', description: …, input_schema: … }
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
 * `spec.rendered` for a generated folder: `neutral` as shipped, each target
 * form rendered on its first read, deeply frozen, then kept. Called by the
 * generated `spec.gen.ts`; the returned object is frozen.
 *
 * @example
 * const rendered = lazyRendered(data, { openaiStrict: false });
 * rendered.anthropic.tools; // rendered now, the same array on every later read
 */
export function lazyRendered(source: RenderSource, options: RenderOptions): { readonly [F in RenderForm]: RenderedTools } {
  const out: Record<string, unknown> = { neutral: deepFreeze(source.rendered.neutral) };
  const frozenOptions = Object.freeze({ ...options });
  for (const form of TARGETS) {
    let cached: RenderedTools | undefined;
    Object.defineProperty(out, form, {
      enumerable: true,
      configurable: false,
      get: () => (cached ??= deepFreeze(renderForm(source, form, frozenOptions))),
    });
  }
  return Object.freeze(out) as { readonly [F in RenderForm]: RenderedTools };
}
