/**
 * Library-owned tools: a `remember` / `recall` memory pair that an
 * integration ships and an application adds to its router with
 * `libraryTools`. They sit after the application's tools in every payload,
 * are never pruned, keep their place when toolkits load or tools are blocked
 * (so the prompt cache holds), and are dispatched by `ownsTool` /
 * `handleTool` (the seed's loop) or by `dispatch` like any tool, with the
 * same gate, validation and rejections.
 *
 * Validation: the runtime compiles no schema, so each tool brings a
 * `validate` function. Here it is `ajv.compile` (ajv is already a toolroute
 * dependency); `ajv.compile<RememberArgs>` is a type guard, and that types
 * the handler's arguments.
 *
 * Run it: `npx tsx examples/memory-tools.ts` (prints a short transcript).
 * The test in test/runtime/library-tools.test.ts runs `runMemoryExample()`.
 */
import { pathToFileURL } from 'node:url';
import { Ajv, type JSONSchemaType } from 'ajv';
import * as generated from '../generated/index.js';
import { createRouter, libraryTool, toolMessage, type NeutralToolCall } from 'toolroute/runtime';

interface RememberArgs {
  key: string;
  value: string;
}
interface RecallArgs {
  key?: string;
}

const ajv = new Ajv({ allErrors: true });

const rememberSchema: JSONSchemaType<RememberArgs> = {
  type: 'object',
  properties: {
    key: { type: 'string', minLength: 1, description: 'A short name for the fact, e.g. "deploy-target"' },
    value: { type: 'string', description: 'The fact itself' },
  },
  required: ['key', 'value'],
  additionalProperties: false,
};
const recallSchema: JSONSchemaType<RecallArgs> = {
  type: 'object',
  properties: { key: { type: 'string', nullable: true, description: 'The fact to read; omit to list every key' } },
  additionalProperties: false,
};

/**
 * The integration's side: memory tools over a store the application owns.
 * The schemas are static (no enum of the keys stored so far), so the tools'
 * bytes never change and stay in the cached prefix.
 *
 * @example
 * const memory = new Map<string, string>();
 * createRouter(generated, handlers, { libraryTools: memoryTools(memory) });
 */
export function memoryTools(store: Map<string, string>) {
  return [
    libraryTool({
      name: 'remember',
      description: 'Store a fact for later turns of this conversation. Overwrites a fact with the same key.',
      parameters: rememberSchema,
      validate: ajv.compile<RememberArgs>(rememberSchema),
      handler: ({ key, value }) => {
        store.set(key, value);
        return `Remembered "${key}".`;
      },
    }),
    libraryTool({
      name: 'recall',
      description: 'Read a stored fact by key, or list the stored keys.',
      parameters: recallSchema,
      validate: ajv.compile<RecallArgs>(recallSchema),
      handler: ({ key }) => (key === undefined ? { keys: [...store.keys()] } : store.has(key) ? { key, value: store.get(key) } : `Nothing stored under "${key}".`),
    }),
  ] as const;
}

export interface MemoryExampleResult {
  /** The tool results, in call order, as the model would read them. */
  readonly results: readonly string[];
  /** Tool names of the first and the last compile (Anthropic). */
  readonly toolsBefore: readonly string[];
  readonly toolsAfter: readonly string[];
  readonly store: ReadonlyMap<string, string>;
}

/**
 * The seed's loop over a scripted model: library calls go to `handleTool`,
 * the rest to `dispatch`. Between turns a toolkit loads and `recall` is
 * blocked; the tools list stays the same.
 *
 * @example
 * const { results } = await runMemoryExample();
 * results[0]; // → 'Remembered "deploy-target".'
 */
export async function runMemoryExample(): Promise<MemoryExampleResult> {
  const store = new Map<string, string>();
  const router = createRouter(
    generated,
    {
      read_file: ({ path }) => ({ path, content: '{"debug": false}' }),
      run_bash: ({ command }) => ({ command, exitCode: 0, stdout: '' }),
      get_time: () => ({ now: '2026-12-01T12:00:00Z' }),
      write_file: ({ path }) => ({ path, written: true }),
      delete_file: ({ path }) => ({ path, deleted: true }),
      tail_logs: ({ service }) => ({ service, lines: [] }),
      get_forecast: ({ city }) => ({ city, sky: 'sunny' }),
      get_current_weather: ({ city }) => ({ city, celsius: 21 }),
      run_query: ({ sql }) => ({ sql, rows: [] }),
      describe_table: ({ table }) => ({ table, columns: [] }),
    },
    { libraryTools: memoryTools(store) },
  );
  const call = (id: string, name: string, args: unknown): NeutralToolCall => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
  const turns: readonly (readonly NeutralToolCall[])[] = [
    [call('c1', 'remember', { key: 'deploy-target', value: 'staging' }), call('c2', 'remember', { key: 'deploy-target' })],
    [call('c3', 'load_toolkit', { toolkit_name: 'Weather' }), call('c4', 'recall', { key: 'deploy-target' })],
    // The operator blocks recall: the tool stays in the payload, the gate answers.
    [call('c5', 'recall', {})],
  ];
  const names = (payload: { tools?: readonly { name: string }[] }) => (payload.tools ?? []).map((t) => t.name);
  const toolsBefore = names(router.compile({ target: 'anthropic', messages: [] }));
  const results: string[] = [];
  for (const [turn, calls] of turns.entries()) {
    if (turn === 2) router.setBlockedTools(['recall']);
    for (const c of calls) {
      const content = router.ownsTool(c.function.name)
        ? await router.handleTool({ name: c.function.name, arguments: c.function.arguments })
        : (toolMessage(c, await router.dispatch(c)).content ?? '');
      results.push(content);
    }
  }
  const toolsAfter = names(router.compile({ target: 'anthropic', messages: [] }));
  return { results, toolsBefore, toolsAfter, store };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { results, toolsAfter } = await runMemoryExample();
  process.stdout.write(`tools: ${toolsAfter.join(', ')}\n${results.map((r) => `→ ${r}`).join('\n')}\n`);
}
