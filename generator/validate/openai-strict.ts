/**
 * `openai_strict_fallback`: with `options.openaiStrict`, a tool whose schema strict mode cannot express is sent to
 * OpenAI without `strict` (the runtime's rewrite decides, and falls back): a warning per such tool, at the part of its
 * schema that decides it, so the fallback is never silent.
 */
import { neutralNamespaceTool } from '../../runtime/neutral.js';
import { strictForOpenAi, toOpenAIStrictSchema } from '../../runtime/targets/strict.js';
import { type Context, isRecord, listAt } from './context.js';
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
  // A namespace is one tool whose schema the runtime builds from its actions (runtime/neutral.ts): checked as it is sent.
  listAt(root.namespaces).forEach((ns, i) => {
    if (!isRecord(ns) || typeof ns.name !== 'string' || typeof ns.description !== 'string') return;
    const encoding = ns.encoding ?? (isRecord(root.options) ? root.options.namespaceEncoding : undefined) ?? 'compact';
    const actions = listAt(ns.tools).map((t) => defined.get(typeof t === 'string' ? t : isRecord(t) && typeof t.name === 'string' ? t.name : '')?.definition);
    if (actions.some((a) => a === undefined || (isRecord(a.parameters) && expandToolParameters(ctx.spec, a.parameters).problems.length > 0))) return;
    const members = actions.map((a) => ({ name: String(a!.name), description: String(a!.description), parameters: isRecord(a!.parameters) ? expandToolParameters(ctx.spec, a!.parameters).schema : {} }));
    const group = { name: ns.name, description: ns.description };
    // The runtime's own test of the tool it sends (a namespace's actions are decoded after routing).
    const strictAs = (form: 'schema' | 'compact') => strictForOpenAi(neutralNamespaceTool(group, members, form));
    const strict = strictAs(encoding === 'schema' ? 'schema' : 'compact');
    if (strict.ok) return;
    const schemaWouldDo = encoding === 'compact' && strictAs('schema').ok;
    ctx.add('openai_strict_fallback', ['namespaces', i, encoding === 'compact' ? 'name' : 'tools'], `the namespace ${JSON.stringify(ns.name)} is sent to OpenAI without strict mode: ${encoding === 'compact' ? 'its compact `args` is an object of any keys' : strict.reason}.`,
      `${encoding === 'compact' ? `Strict mode needs each action's arguments listed${schemaWouldDo ? ': set `encoding: schema` on the namespace (or `options.namespaceEncoding: schema`)' : ', as `encoding: schema` does once each action meets strict mode\'s rules'}` : 'A namespace counts its actions together toward OpenAI\'s size limits, and each action must meet strict mode\'s rules (an action that does not has a warning of its own)'}. Or leave it: the namespace is still sent (non-strict), and the validator checks every call.`,
      'value', 'warning', ns.name);
  });
}
