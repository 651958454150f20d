/**
 * Tool names with `-` (valid in a spec, common in MCP servers) under the
 * Agents SDK's Runner: the model is offered each name as the spec writes it,
 * the names in the router's reasons are ones it was offered, and `list-issues`
 * and `list_issues` stay two tools. A spec with such names is generated into
 * .tmp; the scripted model runs on 127.0.0.1 through the SDK's OpenAI
 * provider, and the assertions read the request bodies the SDK sent.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Agent, Runner, setTracingDisabled } from '@openai/agents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.js';
import { createRouter, type GeneratedModule } from '../../runtime/index.js';
import { toOpenAiAgents } from '../../integrations/openai-agents/index.js';
import { call, search, startScriptedOpenAi, text, type TurnItem } from './openai-agents-model.js';

setTracingDisabled(true);

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SPEC = `version: 1
tools:
  - { name: list-issues, description: List the open issues }
  - { name: list_issues, description: List the closed issues }
namespaces:
  - name: issue-tracker
    description: The issue tracker
    tools:
      - { name: close-issue, description: Close an issue, parameters: { id: { type: string } } }
  - name: repo
    description: The repository
    tools:
      - { name: get-branch, description: The current branch }
toolkits:
  - name: Docs
    description: Library documentation
    tools:
      - { name: resolve-library-id, description: Resolve a library id, parameters: { name: { type: string } } }
`;

let dir = '';
let gen: GeneratedModule;

beforeAll(async () => {
  // Inside the repo (gitignored .tmp), so the generated code resolves `ajv` and the runtime.
  const base = path.join(REPO, '.tmp', 'integration-tests');
  mkdirSync(base, { recursive: true });
  dir = mkdtempSync(path.join(base, 'openai-agents-names-'));
  writeFileSync(path.join(dir, 'spec.yaml'), SPEC);
  const r = await generate(path.join(dir, 'spec.yaml'), { out: path.join(dir, 'out'), cwd: REPO });
  expect(r.problems).toEqual([]);
  gen = (await import(pathToFileURL(path.join(dir, 'out', 'index.ts')).href)) as GeneratedModule;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function dashedRouter() {
  return createRouter(gen, {
    'list-issues': () => 'OPEN issues',
    list_issues: () => 'CLOSED issues',
    'close-issue': ({ id }: { id: string }) => `closed #${id}`,
    'get-branch': () => 'main',
    'resolve-library-id': ({ name }: { name: string }) => `/lib/${name}`,
  } as never);
}

type Item = Record<string, unknown>;

async function runScript(api: 'responses' | 'chat', script: readonly (readonly TurnItem[])[]) {
  const model = await startScriptedOpenAi(api, script);
  try {
    const settings = toOpenAiAgents(dashedRouter(), { api, generated: gen as never });
    const agent = new Agent({ name: 'assistant', model: 'gpt-test', ...settings.agent });
    await new Runner({ modelProvider: model.provider, tracingDisabled: true }).run(agent, 'Triage.', { ...settings.run, maxTurns: 8 });
    return model.requests.map((r) => r.body);
  } finally {
    await model.close();
  }
}

describe('tool names with "-" on the Responses API', () => {
  let bodies: Item[];
  const outputs = () => new Map(bodies.flatMap((b) => (b['input'] as Item[]).flatMap((i) => (i['type'] === 'function_call_output' ? [[i['call_id'], i['output']] as const] : []))));

  beforeAll(async () => {
    bodies = await runScript('responses', [
      [
        call('c1', 'list-issues', {}),
        call('c2', 'list_issues', {}),
        call('c3', 'issue-tracker', { action: 'close-issue', args: { id: '7' } }),
        call('c4', 'get-branch', {}, 'repo'),
        call('c5', 'list-isues', {}),
      ],
      [search('s1', { toolkit_name: 'Docs' })],
      [call('c7', 'resolve-library-id', { name: 'react' }), call('c8', 'resolve_library_id', { name: 'react' })],
      [text('Done.')],
    ]);
  });

  it('offers every name as the spec writes it; a namespace named with "-" goes as the namespace tool', () => {
    const tools = bodies[0]!['tools'] as Item[];
    expect(tools.map((t) => `${String(t['type'])}:${String(t['name'] ?? '')}`)).toEqual([
      'function:issue-tracker',
      'namespace:repo',
      'function:list-issues',
      'function:list_issues',
      'tool_search:',
      'function:resolve-library-id',
    ]);
    expect((tools[1]!['tools'] as Item[]).map((t) => t['name'])).toEqual(['get-branch']);
    expect(tools[5]!['defer_loading']).toBe(true);
  });

  it('each call reaches its own tool: list-issues and list_issues are two tools', () => {
    const out = outputs();
    expect(out.get('c1')).toBe('OPEN issues');
    expect(out.get('c2')).toBe('CLOSED issues');
    expect(out.get('c3')).toBe('closed #7');
    expect(out.get('c4')).toBe('main');
    expect(out.get('c7')).toBe('/lib/react');
  });

  it("the names in the router's reasons are names the model was offered", () => {
    const out = outputs();
    expect(out.get('c5')).toBe('Unknown tool "list-isues". Did you mean: list-issues, list_issues?');
    expect(out.get('c8')).toBe('Unknown tool "resolve_library_id". Did you mean: resolve-library-id?');
    const loaded = (bodies[2]!['input'] as Item[]).find((i) => i['type'] === 'tool_search_output')!;
    expect((loaded['tools'] as Item[]).map((t) => t['name'])).toEqual(['resolve-library-id']);
  });
});

describe('tool names with "-" on Chat Completions', () => {
  it('offers them as written; the dispatcher and each flat tool reach their own handlers', async () => {
    const bodies = await runScript('chat', [
      [call('c1', 'list-issues', {}), call('c2', 'list_issues', {}), call('c3', 'issue-tracker', { action: 'close-issue', args: { id: '9' } })],
      [call('c4', 'load_toolkit', { toolkit_name: 'Docs' })],
      [call('c5', 'call_toolkit_tool', { tool: 'resolve-library-id', args: { name: 'vue' } })],
      [text('Done.')],
    ]);
    const names = ((bodies[0]!['tools'] ?? []) as Item[]).map((t) => (t['function'] as Item)['name']);
    expect(names).toEqual(['issue-tracker', 'repo', 'list-issues', 'list_issues', 'load_toolkit', 'call_toolkit_tool']);
    const results = new Map((bodies.at(-1)!['messages'] as Item[]).flatMap((m) => (m['role'] === 'tool' ? [[m['tool_call_id'], m['content']] as const] : [])));
    expect(results.get('c1')).toBe('OPEN issues');
    expect(results.get('c2')).toBe('CLOSED issues');
    expect(results.get('c3')).toBe('closed #9');
    expect(results.get('c5')).toBe('/lib/vue');
  });
});
