/**
 * The reference setup: the same spec registered with `@context-chef/core@4.2.1`
 * (the library whose documented behaviour toolroute implements), the way its
 * docs show.
 *
 * - Flat tools → `chef.registerTools` with their full JSON Schema and tags.
 * - Namespaces → `chef.registerNamespaces`; a namespace tool's `parameters` is
 *   the properties map, which is the form its documentation's namespace examples use and
 *   the one the reference's `_compileNamespaceTool` reads (it lists each
 *   property's `type` and `description` in the namespace description).
 * - Toolkits → `chef.registerToolkits` with full schemas (what `extractToolkit`
 *   hands to the next request).
 */
import { ContextChef, type ToolDefinition } from '@context-chef/core';
import type { BenchSpec, JsonObject, SpecGroup, SpecTool } from './make-spec.js';

/** The reference's group shape (`ToolGroup`, not exported by the package). */
interface ToolGroup {
  name: string;
  description: string;
  tools: ToolDefinition[];
}

/** The registered library, and the spec's tool definitions by name. */
export interface Reference {
  readonly chef: ContextChef;
  /** Full-schema definitions by tool name. */
  readonly defs: ReadonlyMap<string, SpecTool>;
}

function toDefinition(tool: SpecTool, parameters: JsonObject): ToolDefinition {
  const def: ToolDefinition = { name: tool.name, description: tool.description, parameters };
  if (tool.tags) def.tags = [...tool.tags];
  if (tool.deferLoading) def.deferLoading = true;
  return def;
}

/**
 * Register `spec` with a fresh ContextChef.
 *
 * @example
 * const ref = makeReference(makeMixedSpec(1000).spec);
 * ref.chef.getPruner().pruneByTask('list the open db tickets');
 */
export function makeReference(spec: BenchSpec): Reference {
  const defs = new Map<string, SpecTool>();
  const collect = (entries: readonly (SpecTool | string)[] | undefined): void => {
    for (const e of entries ?? []) if (typeof e !== 'string' && !defs.has(e.name)) defs.set(e.name, e);
  };
  collect(spec.tools);
  for (const g of spec.namespaces ?? []) collect(g.tools);
  for (const g of spec.toolkits ?? []) collect(g.tools);
  const resolve = (e: SpecTool | string): SpecTool => {
    const tool = typeof e === 'string' ? defs.get(e) : e;
    if (!tool) throw new Error(`bench: unresolved tool reference ${String(e)}`);
    return tool;
  };
  const propertiesOf = (tool: SpecTool): JsonObject => (tool.parameters['properties'] ?? {}) as JsonObject;
  const group = (g: SpecGroup, params: (t: SpecTool) => JsonObject): ToolGroup => ({
    name: g.name,
    description: g.description,
    tools: g.tools.map((e) => {
      const t = resolve(e);
      return toDefinition(t, params(t));
    }),
  });

  // A silent logger: the reference warns about compression settings that have nothing to do with tools.
  const chef = new ContextChef({ logger: { warn: () => undefined } });
  chef.registerTools((spec.tools ?? []).map((e) => {
    const t = resolve(e);
    return toDefinition(t, t.parameters);
  }));
  chef.registerNamespaces((spec.namespaces ?? []).map((g) => group(g, propertiesOf)));
  chef.registerToolkits((spec.toolkits ?? []).map((g) => group(g, (t) => t.parameters)));

  return { chef, defs };
}
