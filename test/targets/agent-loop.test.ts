/**
 * Runs examples/agent-loop.ts: a scripted conversation that compiles for all
 * four targets every turn, loads a toolkit, blocks a tool and announces it.
 * Runs against the committed generated folder (kept fresh by `codegen --check`).
 */
import { describe, expect, it } from 'vitest';

import { runAgentLoop, TARGETS_EACH_TURN } from '../../examples/agent-loop.js';

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
    // The gate answered the blocked call and the malformed one as data.
    expect(toolResults.some((r) => /delete_file.*blocked/.test(r))).toBe(true);
    expect(toolResults.at(-1)).toMatch(/get_time/);
    // Announcements were rendered into payloads, never written into the history.
    expect(JSON.stringify(history)).not.toContain('<announcements>');
    const at = (turn: number) => compiles.filter((c) => c.turn === turn).map((c) => c.json).join('\n');
    expect(at(1)).toContain('Toolkit Weather is loaded');
    expect(at(2)).not.toContain('Toolkit Weather is loaded');
    expect(at(2)).toContain('delete_file is disabled in this environment');
  });
});
