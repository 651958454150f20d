/**
 * `openai_strict_fallback`: with `options.openaiStrict`, a tool whose schema strict mode cannot express is sent to
 * OpenAI without `strict` (the runtime's rewrite decides, and falls back): a warning per such tool, at the part of its
 * schema that decides it, so the fallback is never silent.
 */
import { toOpenAIStrictSchema } from '../../runtime/targets/strict.js';
import { type Context, isRecord } from './context.js';
import { expandToolParameters } from './parameters.js';
import type { ToolEntry } from './references.js';

/**
 * Warns for each tool that OpenAI gets without strict mode although the spec asks for it.
 *
 * @example
 * checkOpenAiStrict(ctx, root, defined); // warning openai_strict_fallback at tools[2].parameters.properties.extra
 */
export function checkOpenAiStrict(ctx: Context, root: Record<string, unknown>, defined: ReadonlyMap<string, ToolEntry>): void {
  if (!isRecord(root.options) || root.options.openaiStrict !== true) return;
  for (const e of defined.values()) {
    const parameters = e.definition?.parameters ?? {};
    if (!isRecord(parameters)) continue;
    const expanded = expandToolParameters(ctx.spec, parameters);
    if (expanded.problems.length > 0) continue;
    const strict = toOpenAIStrictSchema(expanded.schema);
    if (strict.ok) continue;
    // The runtime names the place as a JSON Pointer into the schema; the spec path continues from `parameters`.
    const at = strict.path.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    ctx.add(
      'openai_strict_fallback',
      [...e.path, 'parameters', ...(expanded.shorthand ? at.slice(1) : at)],
      `the tool ${JSON.stringify(e.name)} is sent to OpenAI without strict mode: ${strict.reason}.`,
      "Strict mode needs closed objects with listed properties, one `items` schema per array, no `$ref`, `allOf` or `not`, and a schema within OpenAI's size limits. Rewrite that part, or leave it: the tool is still sent (non-strict) and the validator checks every call.",
      'value',
      'warning',
      e.name,
    );
  }
}
