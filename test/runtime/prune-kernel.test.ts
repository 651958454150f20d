/**
 * The prune kernel (runtime/prune-kernel.ts) is what `selectTaskFresh` and
 * the other scans use for matchers with ASCII keywords: these tests check
 * that it is the path taken, that it selects exactly the seed rule on the
 * inputs its walk treats specially (both halves of a long task, odd and even
 * lengths, no separator, the Kelvin sign, İ sent back to the general scan),
 * and that its arena's bookkeeping (emptying when full, regions of another
 * kernel, matchers placed too often) never gives a wrong answer.
 */
import { afterEach, describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { buildPruneMatcher, matchTask, selectTask, selectTaskFresh } from '../../runtime/matcher.js';
import { createPruneKernel, MAX_PLACEMENTS, pruneKernel, usePruneKernel, type PruneKernel } from '../../runtime/prune-kernel.js';

function seedRule(tools: readonly { name: string; tags: readonly string[] }[], task: string): number[] {
  const lowerTask = task.toLowerCase();
  const kept: number[] = [];
  tools.forEach((tool, i) => {
    if (tool.tags.length === 0) return void kept.push(i);
    if (lowerTask.includes(tool.name.toLowerCase()) || tool.tags.some((tag) => lowerTask.includes(tag.toLowerCase()))) kept.push(i);
  });
  return kept;
}

function bits(sel: Int32Array): number[] {
  const got: number[] = [];
  for (let p = 0; p < sel.length * 32; p++) if ((sel[p >>> 5]! >>> (p & 31)) & 1) got.push(p);
  return got;
}

/** The process kernel wrapped to count what it is asked: placements per call, selects the kernel answered. */
function counting(k: PruneKernel): PruneKernel & { placed: number; answered: number; declined: number } {
  const c = {
    placed: 0,
    answered: 0,
    declined: 0,
    place: (input: Parameters<PruneKernel['place']>[0]) => {
      c.placed++;
      return k.place(input);
    },
    holds: (r: Parameters<PruneKernel['holds']>[0]) => k.holds(r),
    select: (r: Parameters<PruneKernel['select']>[0], task: string, sel: Int32Array) => {
      const n = k.select(r, task, sel);
      if (n >= 0) c.answered++;
      else c.declined++;
      return n;
    },
    scan: (r: Parameters<PruneKernel['scan']>[0], task: string, found: Int32Array) => k.scan(r, task, found),
  };
  return c;
}

const KEYS = ['db', 'api', 'read_file', 'run', 'k', 'ki', 'kelvin', 'ab', 'ba', 'aba', 'a_b', 'x'];
const asciiTools = fc.array(fc.record({ name: fc.constantFrom(...KEYS), tags: fc.array(fc.constantFrom(...KEYS), { maxLength: 3 }) }), { minLength: 1, maxLength: 40 });
// Pieces that make the walk's special cases: separators (space, —, emoji halves) or none at all, capitals, the
// Kelvin sign (lowercases to k), İ (lowercases to i + a combining dot: the general scan's), at lengths around
// the split (48 units) on both parities.
const PIECES = [...KEYS, 'DB', 'Api', 'KELVIN', 'AbA', ' ', '—', '😀', '\uD83D', '_', 'i', 'I', '\u212A', '\u212Aelvin', 'k', 'zz'];
const taskArb = fc
  .tuple(fc.array(fc.constantFrom(...PIECES), { maxLength: 90, size: 'max' }), fc.nat({ max: 5 }), fc.nat())
  .map(([parts, dice, at]) => {
    // İ in about one task in six.
    if (dice === 0) parts.splice(at % (parts.length + 1), 0, 'İ');
    return parts.join('');
  });

describe('prune kernel', () => {
  afterEach(() => {
    usePruneKernel(undefined);
  });

  test('exists on Node and answers selectTaskFresh for ASCII keywords, but not for keywords outside ASCII', () => {
    const k = pruneKernel();
    expect(k).not.toBeNull();
    const c = counting(k!);
    usePruneKernel(c);
    const ascii = buildPruneMatcher([{ name: 'read_file', tags: ['db'] }, { name: 'x', tags: [] }]);
    const sel = new Int32Array(1);
    expect(selectTaskFresh(ascii, 'check the DB', sel)).toBe(2);
    expect(bits(sel)).toEqual([0, 1]);
    expect(c.placed).toBe(1);
    expect(c.answered).toBe(1);
    // A keyword outside ASCII: not placed (the kernel's classes are ASCII only), answered by the scans in matcher.ts.
    const wide = buildPruneMatcher([{ name: 'größe', tags: [] }, { name: 'q', tags: ['straße'] }]);
    expect(selectTaskFresh(wide, 'die STRASSE und die straße', sel)).toBe(2);
    expect(c.placed).toBe(1);
    expect(c.answered).toBe(1);
  });

  test('selects exactly the seed rule on tasks that take every branch of its walk', () => {
    const c = counting(pruneKernel()!);
    usePruneKernel(c);
    fc.assert(
      fc.property(asciiTools, fc.array(taskArb, { minLength: 1, maxLength: 4 }), fc.integer(), (tools, tasks, garbage) => {
        const matcher = JSON.parse(JSON.stringify(buildPruneMatcher(tools)));
        const sel = new Int32Array(((tools.length + 31) >>> 5) + 1);
        for (const task of tasks) {
          sel.fill(garbage);
          const want = seedRule(tools, task);
          expect(selectTaskFresh(matcher, task, sel)).toBe(want.length);
          expect(bits(sel)).toEqual(want);
          // The other entry points scan through the kernel too (`scan`), with the same answer.
          expect(matchTask(matcher, task)).toEqual(want);
          const or = new Int32Array(sel.length + 1);
          selectTask(matcher, task, or, 5);
          expect(bits(or)).toEqual(want.map((p) => p + 5));
        }
      }),
      { numRuns: 1500 },
    );
    // The kernel answered most selects and declined the İ ones (which the general scan answered, above).
    expect(c.answered).toBeGreaterThan(c.declined);
    expect(c.declined).toBeGreaterThan(0);
  });

  test('İ and the Kelvin sign: the two code units whose lowercase holds an ASCII letter', () => {
    // İ lowercases to i + U+0307 (the general scan's: the kernel declines the task), the Kelvin sign to k.
    const tools = [{ name: 'ki', tags: ['q'] }, { name: 'ib', tags: ['q'] }, { name: 'kelvin', tags: ['q'] }, { name: 'abk', tags: ['q'] }, { name: 'i', tags: ['q'] }];
    const matcher = buildPruneMatcher(tools);
    const sel = new Int32Array(1);
    const long = ' and then some more words to pass the split —'.repeat(3);
    for (const task of ['Kİ', 'aİb', 'İ', '\u212Aelvin', 'AB\u212A', `${long}K\u212A\u212Aİ${long}`, `${long}\u212AELVIN`, `ab${long}\u212A`]) {
      expect(selectTaskFresh(matcher, task, sel)).toBe(seedRule(tools, task).length);
      expect(bits(sel)).toEqual(seedRule(tools, task));
    }
    expect(seedRule(tools, 'Kİ')).toEqual([0, 4]);
    expect(seedRule(tools, '\u212Aelvin')).toEqual([2, 4]);
  });

  test('a full arena is emptied and its matchers placed again; a region of another kernel is never read', () => {
    // 2^18 words: the class table and room for a few of these matchers, so placing more empties it.
    const small = createPruneKernel(1 << 18)!;
    const c = counting(small);
    usePruneKernel(c);
    const sets = Array.from({ length: 12 }, (_, s) =>
      Array.from({ length: 300 }, (_, i) => ({ name: `tool_${s}_${i}_${'q'.repeat(i % 7)}`, tags: [`t${(i * 7 + s) % 23}`, 'db'] })),
    );
    const matchers = sets.map((tools) => buildPruneMatcher(tools));
    const task = `tool_3_12_qqqqq and t5 but not T1 — see tool_11_299_qqqqqq db ${'tool_7_4_qqqq '.repeat(3)}`;
    const sel = new Int32Array(10);
    for (let round = 0; round < 2; round++) {
      matchers.forEach((m, s) => {
        expect(selectTaskFresh(m, task, sel)).toBe(seedRule(sets[s]!, task).length);
        expect(bits(sel)).toEqual(seedRule(sets[s]!, task));
      });
    }
    // More placements than matchers: the arena was emptied and the early ones placed again …
    expect(c.placed).toBeGreaterThan(matchers.length);
    // … but never more than MAX_PLACEMENTS each, whatever the order (then matcher.ts scans them itself).
    for (let round = 0; round < 4; round++) for (const m of matchers) selectTaskFresh(m, task, sel);
    expect(c.placed).toBeLessThanOrEqual(matchers.length * MAX_PLACEMENTS);
    matchers.forEach((m, s) => {
      expect(selectTaskFresh(m, task, sel)).toBe(seedRule(sets[s]!, task).length);
      expect(bits(sel)).toEqual(seedRule(sets[s]!, task));
    });
    // Back to a fresh process kernel: the regions above are the small kernel's, so every matcher places itself anew.
    usePruneKernel(undefined);
    const fresh = counting(pruneKernel()!);
    usePruneKernel(fresh);
    expect(selectTaskFresh(matchers[0]!, task, sel)).toBe(seedRule(sets[0]!, task).length);
    expect(bits(sel)).toEqual(seedRule(sets[0]!, task));
  });

  test('a matcher larger than the whole arena is not placed and still prunes exactly', () => {
    const small = createPruneKernel(1 << 17)!;
    const tools = Array.from({ length: 3000 }, (_, i) => ({ name: `some_long_tool_name_${i}`, tags: [`tag${i % 97}`] }));
    const m = buildPruneMatcher(tools);
    const c = counting(small);
    usePruneKernel(c);
    const task = 'run some_long_tool_name_2999 and some_long_tool_name_17 with TAG3';
    const sel = new Int32Array(94);
    expect(selectTaskFresh(m, task, sel)).toBe(seedRule(tools, task).length);
    expect(bits(sel)).toEqual(seedRule(tools, task));
    expect(c.placed).toBe(1);
    expect(c.answered).toBe(0);
  });

  test('an arena smaller than the class table is a configuration mistake', () => {
    expect(() => createPruneKernel(1000)).toThrow(RangeError);
  });
});
