/**
 * The types of pruning: a prune result's `tools[].name` and `removed`
 * are the router's tool names (the generated `ToolName`, plus names
 * registered at run time), not `string`, so they combine with namespace names
 * in `compile({ tools })` and go into `setBlockedTools` without casts.
 * Checked by `npx tsc -p .` (expectTypeOf, @ts-expect-error); vitest runs the
 * runtime halves.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createRouter, type PruneResult, type PrunedTool, type TargetCompileRequest } from '../../runtime/index.js';
import * as gen from '../fixtures/ungrouped-off/expected/index.js';
import type { Handlers, NamespaceName, Registry, ToolName } from '../fixtures/ungrouped-off/expected/index.js';

const handlers = Object.fromEntries(gen.TOOL_NAMES.map((name) => [name, () => name])) as unknown as Handlers;
const messages = [{ role: 'user' as const, content: 'go' }];

describe('prune results are typed by the generated names', () => {
  it('tools[].name and removed are ToolName, for every prune method', () => {
    const router = createRouter(gen, handlers);
    const byTask = router.pruneByTask('read the file');
    expectTypeOf(byTask).toEqualTypeOf<PruneResult<ToolName>>();
    expectTypeOf(byTask.tools).toEqualTypeOf<PrunedTool<ToolName>[]>();
    expectTypeOf(byTask.tools[0]!.name).toEqualTypeOf<ToolName>();
    expectTypeOf(byTask.removed).toEqualTypeOf<ToolName[]>();
    expectTypeOf(router.allowOnly(['read_file']).removed).toEqualTypeOf<ToolName[]>();
    expectTypeOf(router.pruneByTaskAndAllowlist('search', ['grep'], 'intersection').tools[0]!.name).toEqualTypeOf<ToolName>();
    // Still the reference library's ToolDefinition where one is expected.
    expectTypeOf(byTask.tools[0]!).toMatchTypeOf<{ readonly name: string; readonly description: string }>();
    expect(byTask.removed).toEqual(['grep', 'git_diff', 'gh_search', 'run_tests']);
  });

  it('combine with namespace names and blocklists without casts', () => {
    const router = createRouter(gen, handlers);
    const pruned = router.pruneByTask('read the file');
    const names = [...pruned.tools.map((t) => t.name), 'git' as const];
    expectTypeOf(names).toEqualTypeOf<(ToolName | 'git')[]>();
    // The compiling twin of the errors below: names from a prune result next to a namespace name.
    const request = { target: 'openai', messages, tools: names } satisfies TargetCompileRequest<Registry>;
    const payload = router.compile(request);
    expect((payload.tools ?? []).slice(0, names.length).map((t) => (t as { function: { name: string } }).function.name)).toEqual(names);
    router.setBlockedTools(pruned.removed);
    expect(router.getBlockedTools()).toEqual(pruned.removed);
    router.setBlockedTools([]);

    // A name that is no tool or namespace is still refused.
    // @ts-expect-error -- "gti" is not a tool or namespace name (and throws at run time)
    expect(() => router.compile({ target: 'openai', messages, tools: [...names, 'gti'] })).toThrow(TypeError);
    const namespace: NamespaceName = 'git';
    // @ts-expect-error -- a prune result's name is a tool name, never a namespace name
    const wrong: NamespaceName = pruned.tools[0]!.name;
    void wrong;
    expect(namespace).toBe('git');
  });

  it('names registered at run time join the union', () => {
    const router = createRouter(gen, handlers).registerTools([{ name: 'ping', description: 'Ping', handler: () => 'pong' }]);
    const pruned = router.pruneByTask('ping');
    expectTypeOf(pruned.tools[0]!.name).toEqualTypeOf<ToolName | 'ping'>();
    expect(pruned.tools.map((t) => t.name)).toContain('ping');
  });
});
