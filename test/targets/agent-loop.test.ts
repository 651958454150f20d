/**
 * Runs examples/agent-loop.ts: a scripted conversation that compiles for all
 * four targets every turn, loads a toolkit, blocks a tool and announces it.
 * Runs against the committed generated folder (kept fresh by `codegen --check`).
 */
import { describe, expect, it } from 'vitest';

import { BLOCK_TURN, runAgentLoop, TARGETS_EACH_TURN } from '../../examples/agent-loop.js';

describe('examples/agent-loop.ts', () => {
  it('compiles for every target each turn, keeps each cache key, appends loaded tools after the prefix', async () => {
    const { compiles, history, toolResults } = await runAgentLoop();
    const turns = [...new Set(compiles.map((c) => c.turn))];
    expect(turns.length).toBeGreaterThanOrEqual(4);
    for (const turn of turns) {
      expect(compiles.filter((c) => c.turn === turn).map((c) => c.target)).toEqual([...TARGETS_EACH_TURN]);
    }
    for (const target of TARGETS_EACH_TURN) {
      const mine = compiles.filter((c) => c.target === target);
      expect(new Set(mine.map((c) => c.cacheKey)).size).toBe(1);
      expect(mine[0]?.cacheKey).toMatch(/^[0-9a-f]{64}$/);
      const prefix = mine[0]!.tools;
      for (const c of mine) expect(c.tools.slice(0, prefix.length)).toEqual(prefix);
      // After load_toolkit the Weather tools are appended, never inserted.
      expect(mine.at(-1)!.tools.slice(prefix.length)).toEqual(['get_forecast', 'get_current_weather']);
    }
    // Invalid arguments come back by JSON pointer; the model's retry succeeds.
    const invalid = toolResults.findIndex((r) => r.startsWith('Invalid arguments for "get_forecast"'));
    expect(toolResults[invalid]).toContain('- /days: must be <= 14');
    expect(toolResults.slice(invalid + 1).some((r) => r === JSON.stringify({ city: 'Lisbon', days: 2, sky: 'sunny' }))).toBe(true);
    // The gate answered the blocked call and the malformed one as data.
    expect(toolResults).toContain('Tool "delete_file" is currently blocked.');
    expect(toolResults.at(-1)).toMatch(/^Arguments for "terminal" are not valid JSON/);
    // It finishes: the last message is the model's answer, with no tool calls.
    expect(history.at(-1)).toMatchObject({ role: 'assistant', content: expect.stringMatching(/^Lisbon will be sunny/) });
    expect(history.at(-1)?.tool_calls).toBeUndefined();
    // Every tool the model called was offered by the payload it was answering.
    for (const m of history) {
      for (const c of m.tool_calls ?? []) {
        const turn = history.filter((h) => h.role === 'assistant').indexOf(m);
        const offered = compiles.find((x) => x.turn === turn && x.target === 'openai')!.tools;
        expect(offered, c.function.name).toContain(c.function.name);
      }
    }
    // Announcements were rendered into payloads, never written into the history.
    expect(JSON.stringify(history)).not.toContain('<announcements>');
    const at = (turn: number) => compiles.filter((c) => c.turn === turn).map((c) => c.json).join('\n');
    expect(at(1)).toContain('Toolkit Weather is loaded');
    expect(at(2)).not.toContain('Toolkit Weather is loaded');
    expect(at(BLOCK_TURN - 1)).not.toContain('delete_file is disabled in this environment');
    expect(at(BLOCK_TURN)).toContain('delete_file is disabled in this environment');
  });
});
