/**
 * Pruning has exactly the reference library's semantics: a router prunes its flat tools
 * (the spec's and run-time ones) like the reference library's rule written out plainly and
 * like the reference library's own Pruner, on randomized tools, tags and
 * tasks, including characters whose lowercase form changes length (İ → i̇).
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { Pruner } from '@context-chef/core';
import { exampleRouter } from './helpers.js';

/** The reference library's rule, written out plainly (Pruner.pruneByTask of the reference). */
function referenceRule(tools: readonly { name: string; tags: readonly string[] }[], task: string): number[] {
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
const word = (min: number, max: number, chars: readonly string[] = CHARS) => fc.array(fc.constantFrom(...chars), { minLength: min, maxLength: max }).map((cs) => cs.join(''));
// Tool names follow the tool-name rule every registration applies (`PORTABLE_TOOL_NAME`); tags and tasks are any text.
const NAME_CHARS = ['a', 'b', 'A', 'B', '_', 'K', 'k'];
const toolsArb = fc.array(fc.record({ name: word(1, 5, NAME_CHARS), tags: fc.array(word(0, 4), { maxLength: 3 }) }), { maxLength: 12 });

/** The example's flat tools, as its spec tags them. */
const BASE = [
  { name: 'read_file', tags: ['file', 'read'] },
  { name: 'run_bash', tags: ['shell'] },
  { name: 'get_time', tags: [] as string[] },
];

/** The example router with `tools` registered as run-time flat tools. */
function routerWith(tools: readonly { name: string; tags: readonly string[] }[]) {
  return exampleRouter().router.registerTools(tools.map((t) => ({ name: t.name, description: 'd', tags: [...t.tags] })));
}

describe('pruning', () => {
  test('equals the reference rule and the reference Pruner on random tools, tags and tasks, for every prune method', () => {
    fc.assert(
      fc.property(toolsArb, fc.array(word(0, 30), { minLength: 1, maxLength: 6 }), fc.constantFrom('union', 'intersection' as const), (tools, tasks, strategy) => {
        const unique = tools.map((t, i) => ({ name: `${t.name}_${i}`, tags: t.tags }));
        const all = [...BASE, ...unique];
        const router = routerWith(unique);
        const reference = new Pruner({ strategy }).registerTools(all.map((t) => ({ name: t.name, description: 'd', ...(t.tags.length ? { tags: [...t.tags] } : {}) })));
        const allow = all.filter((_, i) => i % 3 === 1).map((t) => t.name);
        const names = (r: { tools: readonly { name: string }[] }) => r.tools.map((t) => t.name);
        for (const task of tasks) {
          const got = router.pruneByTask(task);
          expect(names(got)).toEqual(referenceRule(all, task).map((i) => all[i]!.name));
          expect(names(got)).toEqual(names(reference.pruneByTask(task)));
          expect(got.removed).toEqual(reference.pruneByTask(task).removed);
          expect(names(router.pruneByTaskAndAllowlist(task, allow, strategy))).toEqual(names(reference.pruneByTaskAndAllowlist(task, allow)));
        }
        expect(names(router.allowOnly(allow))).toEqual(names(reference.allowOnly(allow)));
      }),
      { numRuns: 300 },
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

  test('one router keeps pruning correctly as run-time registrations grow its flat tools', () => {
    const { router } = exampleRouter();
    const base = [
      { name: 'read_file', tags: ['file', 'read'] },
      { name: 'run_bash', tags: ['shell'] },
      { name: 'get_time', tags: [] },
    ];
    const task = 'read the db file, then sh db_tool_2';
    const names = (r: { tools: readonly { name: string }[] }) => r.tools.map((t) => t.name);
    expect(names(router.pruneByTask(task))).toEqual(referenceRule(base, task).map((i) => base[i]!.name));
    let current = router as unknown as typeof router;
    const all = [...base];
    for (let step = 0; step < 3; step++) {
      const added = [
        { name: `db_tool_${step}`, tags: ['db'] },
        { name: `web_tool_${step}`, tags: ['web'] },
      ];
      current = current.registerTools(added.map((t) => ({ name: t.name, description: 'd', tags: t.tags }))) as unknown as typeof router;
      all.push(...added);
      const want = referenceRule(all, task).map((i) => all[i]!.name);
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
        const want = referenceRule(all, task).map((i) => all[i]!.name);
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

  test('a task that is not a string is a TypeError, as in the reference; so are tags that are not strings', async () => {
    const { router } = exampleRouter();
    const parts = [{ type: 'text', text: 'read the file' }];
    expect(() => new Pruner().registerTools(router.getAllTools() as never).pruneByTask(parts as never)).toThrow(TypeError);
    expect(() => router.pruneByTask(parts as never)).toThrow(/the task must be a string \(the request as text\); got array/);
    expect(() => router.pruneByTaskAndAllowlist(undefined as never, ['read_file'])).toThrow(/got undefined/);
    await expect(router.rankByTask(parts as never, { k: 3 })).rejects.toThrow(/the task must be a string/);
    for (const tags of ['net', [7]]) {
      expect(() => router.registerTools([{ name: 'ping', description: 'Ping', tags } as never]), JSON.stringify(tags)).toThrow(/"ping"\.tags must be an array of strings/);
    }
    expect(router.getAllTools().map((t) => t.name)).not.toContain('ping');
  });

  test('a tag that is empty matches every task, as includes("") does', () => {
    const router = routerWith([{ name: 'x', tags: [''] }, { name: 'y', tags: ['q'] }]);
    expect(router.pruneByTask('nothing').tools.map((t) => t.name)).toEqual(['get_time', 'x']);
  });

  test('two routers of one spec prune independently of each other', () => {
    const a = routerWith([{ name: 'db_tool', tags: ['db'] }]);
    const b = exampleRouter().router;
    expect(a.pruneByTask('the db').tools.map((t) => t.name)).toEqual(['get_time', 'db_tool']);
    expect(b.pruneByTask('the db').tools.map((t) => t.name)).toEqual(['get_time']);
  });
});
