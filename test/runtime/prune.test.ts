/**
 * Pruning has exactly the seed's semantics: the Aho–Corasick matcher built at
 * codegen time gives the same result as the seed's rule written out plainly,
 * and as the reference library's own Pruner, on randomized tools, tags and
 * tasks, including characters whose lowercase form changes length (İ → i̇).
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { Pruner } from '@context-chef/core';
import { buildPruneMatcher, countSelected, matchTask, selectTask, selectTaskFresh, stampTask } from '../../runtime/matcher.js';
import { exampleRouter } from './helpers.js';

/** The seed's rule, written out plainly (Pruner.pruneByTask of the reference). */
function seedRule(tools: readonly { name: string; tags: readonly string[] }[], task: string): number[] {
  const lowerTask = task.toLowerCase();
  const kept: number[] = [];
  tools.forEach((tool, i) => {
    if (tool.tags.length === 0) return void kept.push(i);
    if (lowerTask.includes(tool.name.toLowerCase()) || tool.tags.some((tag) => lowerTask.includes(tag.toLowerCase()))) kept.push(i);
  });
  return kept;
}

// A small alphabet makes overlaps and shared prefixes/suffixes common; the
// extra characters change length or meaning under toLowerCase.
const CHARS = ['a', 'b', 'A', 'B', '_', ' ', 'İ', 'i', '̇', 'ß', 'Σ', 'σ', 'ς', 'K', 'k', '\u212A', '😀', '\uD83D', 'Ω', 'ω'];
const word = (min: number, max: number) => fc.array(fc.constantFrom(...CHARS), { minLength: min, maxLength: max }).map((cs) => cs.join(''));
const toolsArb = fc.array(fc.record({ name: word(1, 5), tags: fc.array(word(0, 4), { maxLength: 3 }) }), { maxLength: 12 });

describe('prune matcher', () => {
  test('equals the seed rule and the reference Pruner on random tools, tags and tasks', () => {
    fc.assert(
      fc.property(toolsArb, fc.array(word(0, 30), { minLength: 1, maxLength: 8 }), (tools, tasks) => {
        // The serialized form is what the generator writes: round-trip it through JSON.
        const matcher = JSON.parse(JSON.stringify(buildPruneMatcher(tools)));
        for (const task of tasks) {
          const want = seedRule(tools, task);
          expect(matchTask(matcher, task)).toEqual(want);
          // The reference library itself, with each name folded into the tags (and the
          // registered name made unmatchable) so results compare by position.
          const withNames = new Pruner().registerTools(
            tools.map((t, i) => ({ name: `\u0000${i}`, description: '', ...(t.tags.length ? { tags: [t.name, ...t.tags] } : {}) })),
          );
          expect(withNames.pruneByTask(task).tools.map((t) => Number(t.name.slice(1)))).toEqual(want);
        }
      }),
      { numRuns: 2000 },
    );
  });

  test('the router prunes like the reference Pruner registered with the same tools', () => {
    const { router } = exampleRouter();
    const reference = new Pruner().registerTools(router.getAllTools().map((t, i) => ({ ...t, tags: [['file', 'read'], ['shell'], []][i]! })));
    const taskArb = fc.array(fc.constantFrom('read', 'FILE', 'Shell', 'run_bash', 'READ_FILE', 'x', ' ', 'İ', 'sh', 'ell'), { maxLength: 8 }).map((p) => p.join(''));
    fc.assert(
      fc.property(taskArb, fc.subarray(['read_file', 'run_bash', 'get_time'] as const), fc.constantFrom('union', 'intersection' as const), (task, allow, strategy) => {
        const names = (r: { tools: readonly { name: string }[] }) => r.tools.map((t) => t.name);
        expect(names(router.pruneByTask(task))).toEqual(names(reference.pruneByTask(task)));
        expect(router.pruneByTask(task).removed).toEqual(reference.pruneByTask(task).removed);
        const ref = new Pruner({ strategy }).registerTools(reference.getAllTools());
        expect(names(router.pruneByTaskAndAllowlist(task, allow, strategy))).toEqual(names(ref.pruneByTaskAndAllowlist(task, [...allow])));
        expect(router.allowOnly(allow.map((n) => n.toUpperCase() as typeof n))).toMatchObject({ kept: allow.length, total: 3 });
      }),
      { numRuns: 500 },
    );
  });

  test('stampTask reuses one buffer across tasks: each generation marks exactly the seed rule and counts each position once', () => {
    fc.assert(
      fc.property(toolsArb, fc.array(word(0, 30), { minLength: 1, maxLength: 6 }), fc.nat({ max: 3 }), (tools, tasks, offset) => {
        const matcher = JSON.parse(JSON.stringify(buildPruneMatcher(tools)));
        const stamps = new Uint32Array(offset + tools.length + 2);
        tasks.forEach((task, i) => {
          const generation = i + 1;
          const want = seedRule(tools, task);
          expect(stampTask(matcher, task, stamps, generation, offset)).toBe(want.length);
          const got: number[] = [];
          for (let p = 0; p < tools.length; p++) if (stamps[offset + p] === generation) got.push(p);
          expect(got).toEqual(want);
          // Positions outside this matcher's window are never written.
          for (let p = 0; p < offset; p++) expect(stamps[p]).toBe(0);
          // Same generation again: everything is already stamped, nothing new is counted.
          expect(stampTask(matcher, task, stamps, generation, offset)).toBe(0);
        });
      }),
      { numRuns: 500 },
    );
  });

  test('selectTask sets exactly the seed rule\'s bits at any offset, through tag bitsets and per-tool lists alike', () => {
    // Many tools: rare keywords (each tool's own name) take the per-position path,
    // tags shared by many tools the bitset path; offsets cross word boundaries.
    const manyArb = fc
      .tuple(fc.array(fc.tuple(word(1, 4), fc.array(fc.nat({ max: 5 }), { maxLength: 3 })), { minLength: 1, maxLength: 150 }), fc.array(word(1, 3), { minLength: 6, maxLength: 6 }))
      .map(([raw, tagPool]) => raw.map(([name, tagIds], i) => ({ name: `${name}${i}`, tags: tagIds.map((t) => tagPool[t]!) })));
    fc.assert(
      fc.property(fc.oneof(toolsArb, manyArb), fc.array(word(0, 40), { minLength: 1, maxLength: 5 }), fc.nat({ max: 70 }), (tools, tasks, offset) => {
        const matcher = JSON.parse(JSON.stringify(buildPruneMatcher(tools)));
        const words = (offset + tools.length + 31) >>> 5;
        for (const task of tasks) {
          const sel = new Int32Array(words + 1);
          selectTask(matcher, task, sel, offset);
          const bit = (p: number) => (sel[p >>> 5]! >>> (p & 31)) & 1;
          const got: number[] = [];
          for (let p = 0; p < tools.length; p++) if (bit(offset + p) === 1) got.push(p);
          const want = seedRule(tools, task);
          expect(got).toEqual(want);
          expect(countSelected(sel)).toBe(want.length);
          // Bits outside this matcher's window are never set, and a second select changes nothing.
          for (let p = 0; p < offset; p++) expect(bit(p)).toBe(0);
          const again = sel.slice();
          selectTask(matcher, task, sel, offset);
          expect(sel).toEqual(again);
        }
      }),
      { numRuns: 500 },
    );
  });

  // When every keyword is ASCII the scan reads a task's code units in the prune kernel (or, without it,
  // as UTF-8 bytes) and walks a long task as two halves split at a separator; these tasks mix ASCII words
  // with the characters those paths must treat apart (İ, the Kelvin sign, whose lowercase holds ASCII) or
  // may read as separators (Σ, emoji, lone surrogates, U+FFFD, dashes), at lengths on both sides of the
  // split and of the buffers.
  const ASCII_WORDS = ['db', 'api', 'read_file', 'run', 'runs', 'sh', 'shell', 'ab', 'ba', 'k', 'i', 'ki', 'a_b'];
  const MIXED = ['Σ', 'σ', '😀', '\uD83D', '\uDE00', '\uFFFD', '—', '’', 'ß', 'é', ' ', ' ', '.', ',', '\n', 'K', 'I', 'DB', 'Api'];
  const asciiToolsArb = fc.array(fc.record({ name: fc.constantFrom(...ASCII_WORDS), tags: fc.array(fc.constantFrom(...ASCII_WORDS), { maxLength: 3 }) }), { maxLength: 14 });
  // İ and the Kelvin sign (which send the task elsewhere) in about one task in five, at any place.
  const mixedTaskArb = fc
    .tuple(fc.array(fc.oneof(fc.constantFrom(...ASCII_WORDS), fc.constantFrom(...MIXED)), { maxLength: 120, size: 'max' }), fc.option(fc.constantFrom('İ', '\u212A'), { freq: 4 }), fc.nat())
    .map(([parts, special, at]) => {
      if (special !== null) parts.splice(at % (parts.length + 1), 0, special);
      return parts.join('');
    });

  test('ASCII keywords: tasks with any characters, short and long, select exactly the seed rule', () => {
    fc.assert(
      fc.property(asciiToolsArb, fc.array(mixedTaskArb, { minLength: 1, maxLength: 4 }), (tools, tasks) => {
        const matcher = JSON.parse(JSON.stringify(buildPruneMatcher(tools)));
        for (const task of tasks) {
          expect(matchTask(matcher, task)).toEqual(seedRule(tools, task));
          const sel = new Int32Array(((tools.length + 31) >>> 5) + 1);
          selectTask(matcher, task, sel, 0);
          expect(countSelected(sel)).toBe(seedRule(tools, task).length);
        }
      }),
      { numRuns: 1500 },
    );
  });

  test('selectTaskFresh overwrites whatever the bitset held with exactly the seed rule\'s bits, always-kept tools included', () => {
    // Untagged tools (always kept) among tagged ones, bitsets longer than the matcher needs, garbage left in them.
    const mixedArb = fc.array(fc.record({ name: word(1, 4), tags: fc.array(word(1, 3), { maxLength: 2 }) }), { minLength: 0, maxLength: 90 });
    fc.assert(
      fc.property(mixedArb, fc.array(word(0, 40), { minLength: 1, maxLength: 4 }), fc.nat({ max: 2 }), fc.array(fc.integer(), { minLength: 8, maxLength: 8 }), (tools, tasks, extra, garbage) => {
        const matcher = JSON.parse(JSON.stringify(buildPruneMatcher(tools)));
        const words = ((tools.length + 31) >>> 5) + extra;
        const sel = new Int32Array(words);
        for (const task of tasks) {
          for (let w = 0; w < words; w++) sel[w] = garbage[w % garbage.length]!;
          selectTaskFresh(matcher, task, sel);
          const got: number[] = [];
          for (let p = 0; p < words * 32; p++) if ((sel[p >>> 5]! >>> (p & 31)) & 1) got.push(p);
          expect(got).toEqual(seedRule(tools, task));
          // The same answer as clearing and OR-ing with selectTask.
          const or = new Int32Array(words);
          selectTask(matcher, task, or, 0);
          expect(sel).toEqual(or);
        }
      }),
      { numRuns: 500 },
    );
  });

  test('long tasks dense with keywords (a match at nearly every step of both halves) select exactly the seed rule', () => {
    // Short keywords that overlap and chain (a, ab, ba, aba, …): both walks of the joint loop reach reporting
    // states together, one after another and at the last joint step, which the loop must report one by one.
    const KEYS = ['a', 'ab', 'ba', 'aba', 'bab', 'b_', '_a', 'abab', 'zz'];
    const denseToolsArb = fc.array(fc.record({ name: fc.constantFrom(...KEYS), tags: fc.array(fc.constantFrom(...KEYS), { maxLength: 2 }) }), { minLength: 1, maxLength: 20 });
    const denseTaskArb = fc.array(fc.constantFrom('a', 'b', 'A', 'B', '_', ' ', 'z', 'Z', '—'), { minLength: 40, maxLength: 200 }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(denseToolsArb, denseTaskArb, (tools, task) => {
        const matcher = JSON.parse(JSON.stringify(buildPruneMatcher(tools)));
        expect(matchTask(matcher, task)).toEqual(seedRule(tools, task));
        const sel = new Int32Array(1);
        selectTaskFresh(matcher, task, sel);
        expect(countSelected(sel)).toBe(seedRule(tools, task).length);
      }),
      { numRuns: 1500 },
    );
  });

  test('tasks past the UTF-8 buffer (8,192 code units) select exactly the seed rule', () => {
    const tools = [{ name: 'read_file', tags: ['db'] }, { name: 'run', tags: ['sh'] }, { name: 'x', tags: ['kelvin'] }, { name: 'y', tags: [] }];
    const matcher = buildPruneMatcher(tools);
    const filler = 'the quick brown fox — jumps. '.repeat(400);
    for (const task of [`${filler}DB`, `READ_FILE ${filler}`, `${filler}\u212Aelvin`, `${filler}r${filler}un`, filler]) {
      expect(task.length > 8192 || task === filler).toBe(true);
      expect(matchTask(matcher, task)).toEqual(seedRule(tools, task));
    }
  });

  test('keywords in more than 64 distinct characters (the sparse scan) select exactly the seed rule', () => {
    // 80 distinct letters (Greek, Cyrillic, CJK): too many classes for the complete automaton.
    const letters = [...'αβγδεζηθικλμνξοπρστυφχψωабвгдежзийклмнопрстуфхцчшщъыьэюя一二三四五六七八九十百千万'];
    expect(new Set(letters).size).toBeGreaterThan(64);
    const wordArb = fc.array(fc.constantFrom(...letters, 'a', 'b'), { minLength: 1, maxLength: 4 }).map((cs) => cs.join(''));
    const toolsArb80 = fc.array(fc.record({ name: wordArb, tags: fc.array(wordArb, { maxLength: 3 }) }), { minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(toolsArb80, fc.array(fc.constantFrom(...letters, 'A', 'B', ' ', 'Σ', 'İ'), { maxLength: 80 }), (tools, chars) => {
        // Every letter occurs in some keyword, so the automaton has more than 64 classes whatever was drawn.
        const all = [...tools, { name: letters.join(''), tags: ['q'] }];
        const matcher = JSON.parse(JSON.stringify(buildPruneMatcher(all)));
        const task = chars.join('');
        expect(matchTask(matcher, task)).toEqual(seedRule(all, task));
      }),
      { numRuns: 300 },
    );
  });

  test('countSelected counts the set bits of every word, sign bit included', () => {
    expect(countSelected(Int32Array.of(0b1011, -1, 0, 1 << 31))).toBe(3 + 32 + 0 + 1);
  });

  test('one router keeps pruning correctly as run-time registrations grow its flat tools', () => {
    const { router } = exampleRouter();
    const base = [
      { name: 'read_file', tags: ['file', 'read'] },
      { name: 'run_bash', tags: ['shell'] },
      { name: 'get_time', tags: [] },
    ];
    const task = 'read the db file, then sh db_tool_2';
    const names = (r: { tools: readonly { name: string }[] }) => r.tools.map((t) => t.name);
    expect(names(router.pruneByTask(task))).toEqual(seedRule(base, task).map((i) => base[i]!.name));
    let current = router as unknown as typeof router;
    const all = [...base];
    for (let round = 0; round < 3; round++) {
      const added = [
        { name: `db_tool_${round}`, tags: ['db'] },
        { name: `web_tool_${round}`, tags: ['web'] },
      ];
      current = current.registerTools(added.map((t) => ({ name: t.name, description: 'd', tags: t.tags }))) as unknown as typeof router;
      all.push(...added);
      const want = seedRule(all, task).map((i) => all[i]!.name);
      for (let repeat = 0; repeat < 3; repeat++) {
        const r = current.pruneByTask(task);
        expect(names(r)).toEqual(want);
        expect(r.removed).toEqual(all.map((t) => t.name).filter((n) => !want.includes(n)));
        expect(names(current.pruneByTask('nothing matches here'))).toEqual(['get_time']);
      }
    }
  });

  test('run-time flat tools prune with the same rule', () => {
    fc.assert(
      fc.property(toolsArb, word(0, 30), (tools, task) => {
        const unique = tools.map((t, i) => ({ name: `${t.name}_${i}`, tags: t.tags }));
        const { router } = exampleRouter();
        const r2 = router.registerTools(unique.map((t) => ({ name: t.name, description: 'd', tags: t.tags })));
        const all = [
          { name: 'read_file', tags: ['file', 'read'] },
          { name: 'run_bash', tags: ['shell'] },
          { name: 'get_time', tags: [] },
          ...unique,
        ];
        const want = seedRule(all, task).map((i) => all[i]!.name);
        expect(r2.pruneByTask(task).tools.map((t) => t.name)).toEqual(want);
      }),
      { numRuns: 300 },
    );
  });

  test('prune results are dense and their counts match, with run-time tools, for every prune method', () => {
    fc.assert(
      fc.property(toolsArb, word(0, 30), fc.constantFrom('union', 'intersection' as const), (tools, task, strategy) => {
        const unique = tools.map((t, i) => ({ name: `${t.name}_${i}`, tags: t.tags }));
        const { router } = exampleRouter();
        const r2 = router.registerTools(unique.map((t) => ({ name: t.name, description: 'd', tags: t.tags })));
        const all = r2.getAllTools().map((t) => t.name);
        const allow = all.filter((_, i) => i % 3 === 0);
        for (const result of [r2.pruneByTask(task), r2.allowOnly(allow), r2.pruneByTaskAndAllowlist(task, allow, strategy)]) {
          expect(result.kept).toBe(result.tools.length);
          expect(result.total).toBe(all.length);
          expect(result.tools.length + result.removed.length).toBe(all.length);
          // Every slot filled (the arrays are allocated at their final size), every name once, flat order kept.
          expect(Object.keys(result.tools).length).toBe(result.tools.length);
          expect(Object.keys(result.removed).length).toBe(result.removed.length);
          const kept = new Set(result.tools.map((t) => t.name));
          expect(all.filter((n) => kept.has(n))).toEqual(result.tools.map((t) => t.name));
          expect(all.filter((n) => !kept.has(n))).toEqual(result.removed);
        }
      }),
      { numRuns: 200 },
    );
  });

  test('a tag that is empty matches every task, as includes("") does', () => {
    const m = buildPruneMatcher([{ name: 'x', tags: [''] }, { name: 'y', tags: ['q'] }]);
    expect(matchTask(m, 'nothing')).toEqual([0]);
  });

  test('the matcher is plain JSON data and deterministic', () => {
    const tools = [{ name: 'read_file', tags: ['file', 'read'] }, { name: 'run_bash', tags: ['shell'] }];
    const a = buildPruneMatcher(tools);
    expect(JSON.parse(JSON.stringify(a))).toEqual(a);
    expect(JSON.stringify(buildPruneMatcher(tools))).toBe(JSON.stringify(a));
  });
});
