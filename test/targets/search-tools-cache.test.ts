/**
 * `search_tools` (the `searchTools` option) over 200 scripted turns on OpenAI Chat and Gemini, whose toolkits load
 * through the dispatcher: each turn the model searches for toolkit tools by what it needs, calls what it found through
 * `call_toolkit_tool` without loading any toolkit, and the operator blocks, unblocks and announces between turns.
 * Every request starts with the whole previous request except its volatile tail (the announcements): full reuse on
 * every turn, one tools array for the whole conversation.
 */
import { describe, expect, test } from 'vitest';
import * as gen from '../../generated/index.js';
import * as flatOnly from '../fixtures/flat-only/expected/index.js';
import { cacheBlocks, cacheReuse } from '../../runtime/cache-reuse.js';
import { createRouter } from '../../runtime/index.js';
import type { NeutralMessage, NeutralToolCall } from '../../runtime/targets/history.js';
import { recordingHandlers } from '../runtime/helpers.js';
import { rng } from './rng.js';

const TURNS = 200;
/** What the model asks for, and the valid arguments of the tool that should answer it. */
const NEEDS = [
  { query: 'weather forecast for the next days', tool: 'get_forecast', args: { city: 'Lisbon', days: 2 } },
  { query: 'current weather conditions in a city', tool: 'get_current_weather', args: { city: 'Porto' } },
  { query: 'run a SQL select statement', tool: 'run_query', args: { sql: 'SELECT 1' } },
  { query: 'show the columns of a table', tool: 'describe_table', args: { table: 'users' } },
];
const call = (id: string, name: string, args: unknown): NeutralToolCall => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });

describe('search_tools over 200 turns with the dispatcher', () => {
  test.each(['openai', 'gemini'] as const)('%s: full reuse on every turn, found tools called without a load', async (target) => {
    const random = rng(20261205);
    const router = createRouter(gen, recordingHandlers().handlers, { toolkitLoading: 'dispatcher', searchTools: { k: 2 } });
    const history: NeutralMessage[] = [{ role: 'user', content: 'Check the weather and the database.' }];
    const compile = () => router.compile({ target, system: 'Be brief.', messages: history, tools: ['file_ops', 'get_time'] });
    const tools = (p: unknown) => JSON.stringify(cacheBlocks(target, p).filter((b) => b.section === 'tools').map((b) => b.json));
    let previous = compile();
    const toolArrays = new Set([tools(previous)]);
    const short: number[] = [];
    let foundFirst = 0;
    let open = 0;
    let calledOk = 0;
    for (let turn = 1; turn <= TURNS; turn++) {
      const op = Math.floor(random() * 4);
      if (op === 0) router.setBlockedTools(random() < 0.5 ? ['run_query'] : []);
      else if (op === 1) router.announce(`a${turn % 3}`, `Fact of turn ${turn}`, { channel: random() < 0.5 ? 'system' : 'user_tail' });
      else if (op === 2) router.retractAnnouncement(`a${turn % 3}`);
      const need = NEEDS[Math.floor(random() * NEEDS.length)]!;
      const search = call(`s${turn}`, 'search_tools', { query: need.query });
      history.push({ role: 'assistant', content: null, tool_calls: [search] });
      const found = await router.dispatch(search);
      const text = found.ok ? String(found.result) : found.reason;
      history.push({ role: 'tool', tool_call_id: search.id, content: text });
      if (!(router.getBlockedTools() as string[]).includes(need.tool)) {
        open++;
        if (text.split('\n')[1]?.startsWith(`- ${need.tool}:`)) foundFirst++;
      }
      const use = call(`u${turn}`, 'call_toolkit_tool', { tool: need.tool, args: need.args });
      history.push({ role: 'assistant', content: null, tool_calls: [use] });
      const used = await router.dispatch(use);
      if (used.ok) calledOk++;
      else expect(used.code, `turn ${turn}: ${used.reason}`).toBe('blocked');
      history.push({ role: 'tool', tool_call_id: use.id, content: used.ok ? JSON.stringify(used.result) : used.reason });
      const next = compile();
      const blocks = cacheBlocks(target, previous);
      const volatile = blocks.findIndex((b) => b.json.includes('<announcements>'));
      if (cacheReuse(target, previous, next).reusedBlocks < (volatile === -1 ? blocks.length : volatile)) short.push(turn);
      toolArrays.add(tools(next));
      previous = next;
    }
    expect(short).toEqual([]);
    expect(toolArrays.size).toBe(1);
    expect([...toolArrays][0]).toContain('search_tools');
    expect(router.getLoadedToolkits().sort()).toEqual(['Database', 'Weather']);
    // The search found the needed tool first whenever it was not blocked, and the calls ran without any load_toolkit.
    expect(foundFirst).toBe(open);
    expect(calledOk).toBe(open);
    expect(open).toBeGreaterThan(TURNS * 0.7);
    expect(history.some((m) => m.role === 'assistant' && m.tool_calls?.some((c) => c.function.name === 'load_toolkit'))).toBe(false);
  });
});

describe('search_tools', () => {
  test('finds callable toolkit tools only (blocked ones left out), and says so when nothing matches', async () => {
    const router = createRouter(gen, recordingHandlers().handlers, { searchTools: true });
    router.setBlockedTools(['get_forecast']);
    const r = await router.dispatch(call('1', 'search_tools', { query: 'weather forecast' }));
    expect(r.ok && r.result).toMatch(/^These tools can be called now \(through call_toolkit_tool when it is among your tools\):\n- get_current_weather: Current conditions for a city\n {2}city: string/);
    expect(r.ok && String(r.result)).not.toContain('get_forecast');
    const none = await router.dispatch(call('2', 'search_tools', { query: 'zzz qqq' }));
    expect(none.ok && none.result).toBe('No tool matches "zzz qqq"; try other words, or load a toolkit of the directory.');
    // Its check says only yes or no: the reason names what the tool takes, so the model can fix the call.
    for (const args of [{ q: 'x' }, { query: 'weather', k: 3 }, { query: ['weather', 'sql'] }, {}]) {
      const bad = await router.dispatch(call('3', 'search_tools', args));
      expect(bad.ok ? 'ok' : bad.reason).toBe('Invalid arguments for "search_tools":\n- (arguments): do not match the tool\'s parameters; it takes query (string, required) and nothing else\nFix them and call search_tools again.');
    }
    expect(router.getLoadedToolkits()).toEqual(['Weather']);
    // A router without toolkits never points the model at a directory it does not have.
    const noKits = createRouter(flatOnly, Object.fromEntries(flatOnly.TOOL_NAMES.map((name) => [name, () => 'ok'])) as never, { searchTools: true });
    const nothing = await noKits.dispatch(call('4', 'search_tools', { query: 'weather forecast' }));
    expect(nothing.ok && nothing.result).toBe('No tool matches "weather forecast"; try other words.');
  });

  test('a compile whose toolkit loading cannot show what the search loads throws, naming the fix, and changes nothing', () => {
    const messages: NeutralMessage[] = [{ role: 'user', content: 'hi' }];
    const router = createRouter(gen, recordingHandlers().handlers, { searchTools: true, toolkitLoading: { anthropic: 'native', 'openai-responses': 'native', openai: 'dispatcher', gemini: 'append' } });
    for (const target of ['anthropic', 'openai-responses'] as const) {
      expect(() => router.compile({ target, messages }), target).toThrow(new RegExp(`search-tools-toolkit-loading: .*on ${target} \\((deferred|tool-search)\\).*Fix: toolkitLoading 'dispatcher'`));
      expect(router.snapshot().firstTurn, target).toEqual({});
    }
    const changes = createRouter(gen, recordingHandlers().handlers, { searchTools: true, toolkitLoading: 'tool-changes', model: 'claude-opus-4-8' });
    expect(() => changes.compile({ target: 'anthropic', messages })).toThrow(/search-tools-toolkit-loading: .*\(tool-changes\)/);
    // The dispatcher and append show every load: search_tools is offered.
    for (const target of ['openai', 'gemini'] as const) expect(JSON.stringify(router.compile({ target, messages }))).toContain('"search_tools"');
    // Responses with its hosted tool search loads toolkits through the dispatcher.
    expect(JSON.stringify(router.compile({ target: 'openai-responses', messages, options: { toolSearch: true } }))).toContain('"search_tools"');
  });

  test('with load_toolkit blocked, the search loads no toolkit: only tools of toolkits loaded already are found', async () => {
    const router = createRouter(gen, recordingHandlers().handlers, { searchTools: true });
    router.setBlockedTools(['load_toolkit']);
    const r = await router.dispatch(call('1', 'search_tools', { query: 'weather forecast' }));
    expect(r.ok && r.result).toMatch(/^No tool matches/);
    expect(router.getLoadedToolkits()).toEqual([]);
    // No load can be made, so the reason asks for none (a load_toolkit call would only be refused as blocked).
    expect(await router.dispatch(call('2', 'get_forecast', { city: 'Lisbon' }))).toEqual({ ok: false, code: 'blocked', callId: '2',
      reason: 'Tool "get_forecast" belongs to toolkit "Weather", which is not loaded. Loading it is currently blocked, so the tool cannot be called now.' });
    router.setBlockedTools([]);
    router.extractToolkit('Weather');
    router.setBlockedTools(['load_toolkit']);
    const loaded = await router.dispatch(call('3', 'search_tools', { query: 'weather forecast' }));
    expect(loaded.ok && String(loaded.result)).toContain('- get_forecast:');
  });

  test('fails loudly on a bad k or a folder without a search loader', () => {
    expect(() => createRouter(gen, recordingHandlers().handlers, { searchTools: { k: 0 } })).toThrow(/searchTools.k must be a positive integer/);
    expect(() => createRouter(gen, recordingHandlers().handlers, { searchTools: 'yes' as unknown as true })).toThrow(/searchTools must be true or \{ k \}.*got "yes"/);
    // Nothing from JavaScript quietly becomes k = 5 or switches the search off.
    for (const bad of [0, '', null, [], new Date(0), { k: null }, { kk: 3 }, { k: 5n }, { k: 2.5 }]) {
      expect(() => createRouter(gen, recordingHandlers().handlers, { searchTools: bad as never }), String(bad)).toThrow(/searchTools must be true or \{ k \}/);
    }
    expect(() => createRouter(gen, recordingHandlers().handlers, { searchTools: false as never })).not.toThrow();
    expect(() => createRouter({ spec: gen.spec }, recordingHandlers().handlers, { searchTools: true })).toThrow(/searchTools needs a generated folder with its search loader/);
  });
});
