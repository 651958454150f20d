/**
 * Builds IR by hand for back-end unit tests, independent of the front end:
 * tools by name with their groups, every index filled in the way the
 * normalizer does.
 */
import type { IRSpec, IRTool, JsonSchema } from '../../generator/ir.js';

export interface ToolInput {
  name: string;
  description?: string;
  tags?: string[];
  deferLoading?: boolean;
  parameters?: JsonSchema;
}

export interface IRInput {
  tools?: ToolInput[];
  namespaces?: { name: string; description?: string; encoding?: 'compact' | 'schema'; tools: ToolInput[] }[];
  toolkits?: { name: string; description?: string; tools: ToolInput[] }[];
  policies?: Record<string, string[]>;
  options?: Partial<IRSpec['options']>;
  hash?: string;
}

const source = { file: 'spec.yaml', line: 1, column: 1, path: '' };

function typeName(name: string): string {
  return `${name.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}Args`;
}

/**
 * @example
 * buildIR({ tools: [{ name: 'get_time' }] }).tools[0].typeName; // 'GetTimeArgs'
 */
export function buildIR(input: IRInput): IRSpec {
  const tools: (IRTool & { namespaces: number[]; toolkits: number[]; flat: boolean })[] = [];
  const indexOf = new Map<string, number>();
  const add = (t: ToolInput): number => {
    const known = indexOf.get(t.name);
    if (known !== undefined) return known;
    const index = tools.length;
    indexOf.set(t.name, index);
    tools.push({
      name: t.name,
      description: t.description ?? `Tool ${t.name}`,
      tags: t.tags ?? [],
      deferLoading: t.deferLoading ?? false,
      parameters: t.parameters ?? { type: 'object', properties: {}, additionalProperties: false },
      hasParameters: t.parameters !== undefined,
      typeName: typeName(t.name),
      flat: false,
      namespaces: [],
      toolkits: [],
      source,
    });
    return index;
  };
  const flat = (input.tools ?? []).map((t) => {
    const i = add(t);
    tools[i]!.flat = true;
    return i;
  });
  const namespaces = (input.namespaces ?? []).map((ns, k) => ({
    name: ns.name,
    description: ns.description ?? `Namespace ${ns.name}`,
    encoding: ns.encoding ?? input.options?.namespaceEncoding ?? 'compact',
    tools: ns.tools.map((t) => {
      const i = add(t);
      tools[i]!.namespaces.push(k);
      return i;
    }),
    source,
  }));
  const toolkits = (input.toolkits ?? []).map((kit, k) => ({
    name: kit.name,
    description: kit.description ?? `Toolkit ${kit.name}`,
    tools: kit.tools.map((t) => {
      const i = add(t);
      tools[i]!.toolkits.push(k);
      return i;
    }),
    source,
  }));
  return {
    version: 1,
    file: 'spec.yaml',
    hash: input.hash ?? 'f'.repeat(64),
    options: { namespaceEncoding: 'compact', openaiStrict: false, offerUngroupedTools: true, applyDefaults: false, ...input.options },
    tools,
    flat,
    namespaces,
    toolkits,
    policies: Object.entries(input.policies ?? {}).map(([name, block]) => ({ name, block, source })),
  };
}
