/**
 * Runs examples/agent-loop.ts on every target: a scripted conversation that
 * loads a toolkit and calls one of its tools, blocks a tool and announces it.
 * With the default (native) toolkit loading, every turn's request starts with
 * the whole previous request except its announcement tail, and the cache key
 * never changes. Runs against the committed generated folder (kept fresh by
 * `codegen --check`).
 */
import { describe, expect, it } from 'vitest';

import { BLOCK_TURN, runAgentLoop, TARGETS_EACH_TURN } from '../../examples/agent-loop.js';

describe('examples/agent-loop.ts', () => {
  it('loads a toolkit and calls its tool on every target, with the whole previous request reused every turn', async () => {
    const runs = await runAgentLoop();
    for (const target of TARGETS_EACH_TURN) {
      const { compiles, history, toolResults, warnings } = runs[target];
      expect(compiles.length, target).toBeGreaterThanOrEqual(4);
      // The tools never change, so the key does not either, and each request extends the previous one.
      expect(new Set(compiles.map((c) => c.cacheKey)).size, target).toBe(1);
      expect(compiles[0]?.cacheKey).toMatch(/^[0-9a-f]{64}$/);
      expect(new Set(compiles.map((c) => c.tools.join(','))).size, target).toBe(1);
      for (const c of compiles.slice(1)) {
        expect(c.reuse!.reusedBlocks, `${target} turn ${c.turn}`).toBeGreaterThanOrEqual(c.reusable!);
        expect(c.reusable!).toBeGreaterThan(3);
      }
      // The toolkit's tool was called in the target's vocabulary and ran: invalid first (reason by JSON pointer), then valid.
      const dispatcher = target === 'openai' || target === 'gemini';
      const invalid = toolResults.findIndex((r) => r.startsWith(dispatcher ? 'Invalid arguments for "call_toolkit_tool" tool "get_forecast"' : 'Invalid arguments for "get_forecast"'));
      expect(invalid, target).toBeGreaterThan(-1);
      expect(toolResults[invalid]).toContain(dispatcher ? '- /args/days: must be <= 14' : '- /days: must be <= 14');
      expect(toolResults.slice(invalid + 1)).toContain(JSON.stringify({ city: 'Lisbon', days: 2, sky: 'sunny' }));
      // The gate answered the blocked call and the malformed one as data.
      expect(toolResults).toContain('Tool "delete_file" is currently blocked.');
      expect(toolResults.at(-1)).toMatch(/^Arguments for "terminal" are not valid JSON/);
      // It finishes: the last message is the model's answer, with no tool calls.
      expect(history.at(-1)).toMatchObject({ role: 'assistant', content: expect.stringMatching(/^Lisbon will be sunny/) });
      expect(history.at(-1)?.tool_calls).toBeUndefined();
      // Every tool the model called was offered by the payload it was answering (on Responses the
      // loader is the client tool_search, whose calls the loop records as load_toolkit).
      // A toolkit tool loaded by a tool search is offered by the tool_search_output in the input.
      const offered = compiles[0]!.tools;
      const assistants = history.filter((h) => h.role === 'assistant');
      for (const m of assistants) {
        const compiled = compiles.find((x) => x.turn === assistants.indexOf(m))!;
        const searched = [...compiled.json.matchAll(/"type":"tool_search_output"[^\]]*?"tools":\[\{"type":"function","name":"(\w+)"/g)].map((x) => x[1]);
        for (const c of m.tool_calls ?? []) {
          const name = target === 'openai-responses' && c.function.name === 'load_toolkit' ? 'tool_search' : c.function.name;
          expect([...offered, ...searched], `${target} ${name}`).toContain(name);
        }
      }
      // The native form of the load is in the request.
      const last = compiles.at(-1)!.json;
      if (target === 'anthropic') expect(last).toContain('{"type":"tool_reference","tool_name":"get_forecast"}');
      if (target === 'openai-responses') expect(last).toMatch(/"type":"tool_search_output","call_id":"call_1","execution":"client","status":"completed","tools":\[\{"type":"function","name":"get_forecast"/);
      if (dispatcher) expect(offered).toContain('call_toolkit_tool');
      // Announcements were rendered into payloads, never written into the history.
      expect(JSON.stringify(history)).not.toContain('<announcements>');
      const at = (turn: number) => compiles.find((c) => c.turn === turn)!.json;
      expect(at(1)).toContain('Toolkit Weather is loaded');
      expect(at(2)).not.toContain('Toolkit Weather is loaded');
      expect(at(BLOCK_TURN - 1)).not.toContain('delete_file is disabled in this environment');
      expect(at(BLOCK_TURN)).toContain('delete_file is disabled in this environment');
      expect(warnings).toEqual([]);
    }
  });
});
