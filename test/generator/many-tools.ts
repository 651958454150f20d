/**
 * Writes a large synthetic spec (JSON) for the scale test and benchmarks:
 * `count` tools spread over flat tools, namespaces of 10 and toolkits of 10,
 * each with its own schema (distinct enums, so no two share a validator).
 */

/**
 * @example
 * const json = manyToolsSpec(1000); // 400 flat, 400 in 40 namespaces, 200 in 20 toolkits
 */
export function manyToolsSpec(count: number): string {
  const tool = (i: number) => ({
    name: `tool_${i}`,
    description: `Synthetic tool number ${i}: does thing ${i} to a resource`,
    tags: i % 3 === 0 ? [] : [`tag${i % 17}`, `group${i % 5}`],
    parameters: {
      type: 'object',
      properties: {
        id: { type: 'string', description: `Identifier of the resource for tool ${i}` },
        mode: { type: 'string', enum: [`fast_${i}`, `safe_${i}`, 'default'], default: 'default' },
        limit: { type: 'integer', minimum: 1, maximum: 1000 + i },
        filters: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' }, value: { type: ['string', 'number'] } }, required: ['field'] } },
        when: { type: 'string', format: 'date-time' },
      },
      required: ['id'],
      additionalProperties: false,
    },
  });
  const flatCount = Math.floor(count * 0.4);
  const nsCount = Math.floor(count * 0.4);
  const tools = Array.from({ length: flatCount }, (_, i) => tool(i));
  const namespaces = Array.from({ length: Math.ceil(nsCount / 10) }, (_, k) => ({
    name: `ns_${k}`,
    description: `Namespace ${k}`,
    tools: Array.from({ length: 10 }, (_, j) => flatCount + k * 10 + j).filter((i) => i < flatCount + nsCount).map(tool),
  }));
  const rest = count - flatCount - nsCount;
  const toolkits = Array.from({ length: Math.ceil(rest / 10) }, (_, k) => ({
    name: `Kit${k}`,
    description: `Toolkit ${k}`,
    tools: Array.from({ length: 10 }, (_, j) => flatCount + nsCount + k * 10 + j).filter((i) => i < count).map(tool),
  }));
  return `${JSON.stringify({ version: 1, tools, namespaces, toolkits, policies: { prod: ['tool_1', 'ns_0'] } }, null, 1)}\n`;
}
