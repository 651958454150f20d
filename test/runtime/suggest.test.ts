/**
 * "Did you mean" on the rejection path: `boundedDistance` stops early once a
 * row of the matrix exceeds the bound, and `Suggester` compares only names of
 * nearby length. Both shortcuts are held to plain oracles: the generator's
 * full-matrix `editDistance` (same optimal-string-alignment distance, no early
 * exit) and a brute-force scan of every candidate.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { editDistance } from '../../generator/problems.js';
import { boundedDistance, Suggester } from '../../runtime/suggest.js';

// A tiny alphabet makes near misses, transpositions and equal-length pairs common.
const word = (max: number) => fc.array(fc.constantFrom('a', 'b', 'c', 'A', '_'), { maxLength: max }).map((cs) => cs.join(''));

describe('boundedDistance', () => {
  test('equals the full-matrix distance when within the bound, and bound + 1 otherwise', () => {
    let within = 0;
    let beyond = 0;
    fc.assert(
      fc.property(word(9), word(9), fc.integer({ min: 0, max: 4 }), (a, b, bound) => {
        const full = editDistance(a, b);
        if (full <= bound) within++;
        else beyond++;
        expect(boundedDistance(a, b, bound)).toBe(Math.min(full, bound + 1));
      }),
      { numRuns: 3000 },
    );
    // Both branches were exercised, not just one.
    expect(within).toBeGreaterThan(100);
    expect(beyond).toBeGreaterThan(100);
  });

  test('counts an adjacent transposition as one edit', () => {
    expect(boundedDistance('raed_file', 'read_file', 2)).toBe(1);
    expect(boundedDistance('ab', 'ba', 0)).toBe(1);
  });
});

describe('Suggester.closest', () => {
  /** The documented rule, by brute force over every candidate. */
  function oracle(names: readonly string[], query: string, limit: number): string[] {
    if (query.length === 0 || query.length > 128) return [];
    const lower = query.toLowerCase();
    const exact = names.find((n) => n.toLowerCase() === lower);
    if (exact !== undefined && exact !== query) return [exact];
    const bound = Math.max(1, Math.min(3, Math.floor(lower.length / 3)));
    return names
      .map((name, order) => ({ name, order, d: editDistance(lower, name.toLowerCase()) }))
      .filter((c) => c.d <= bound && c.name !== query)
      .sort((x, y) => x.d - y.d || x.order - y.order)
      .slice(0, limit)
      .map((c) => c.name);
  }

  test('equals a brute-force scan of every candidate', () => {
    let suggested = 0;
    fc.assert(
      fc.property(fc.uniqueArray(word(8), { maxLength: 12 }), word(8), fc.integer({ min: 1, max: 4 }), (names, query, limit) => {
        const want = oracle(names, query, limit);
        if (want.length > 0) suggested++;
        expect(new Suggester(names).closest(query, limit)).toEqual(want);
      }),
      { numRuns: 2000 },
    );
    expect(suggested).toBeGreaterThan(100);
  });

  test('ignores a query longer than any tool name could be', () => {
    const long = 'a'.repeat(129);
    expect(new Suggester([`${long}b`]).closest(long)).toEqual([]);
  });
});
