/**
 * `checkToolCall` with arguments returns the generated `ToolCallCheckResult`, whether the arguments are a JSON
 * string or an object; with a name alone it returns the name-level result, which is not assignable to it.
 * Checked by `npx tsc -p .`; vitest runs the runtime halves.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createRouter } from '../../runtime/index.js';
import * as gen from '../fixtures/ungrouped-off/expected/index.js';
import type { Handlers, ToolCallCheckResult } from '../fixtures/ungrouped-off/expected/index.js';

const handlers = Object.fromEntries(gen.TOOL_NAMES.map((name) => [name, () => name])) as unknown as Handlers;

describe('checkToolCall results are the generated ToolCallCheckResult', () => {
  it('for object and string arguments, and for every call shape that carries arguments', () => {
    const router = createRouter(gen, handlers);
    const fromObject: ToolCallCheckResult = router.checkToolCall({ name: 'git', arguments: { action: 'git_commit', args: { message: 'm' } } });
    const fromString: ToolCallCheckResult = router.checkToolCall({ name: 'git', arguments: '{"action":"git_commit","args":{"message":"m"}}' });
    const fromChat: ToolCallCheckResult = router.checkToolCall({ function: { name: 'git', arguments: { action: 'git_status', args: {} } }, id: 'c1' });
    const fromInput: ToolCallCheckResult = router.checkToolCall({ name: 'git', input: { action: 'git_status', args: {} } });
    expectTypeOf(router.checkToolCall({ name: 'git', arguments: {} })).toEqualTypeOf<ToolCallCheckResult>();
    // @ts-expect-error a name alone is checked by name only: its result has no `call`.
    const nameOnly: ToolCallCheckResult = router.checkToolCall({ name: 'git' });
    for (const r of [fromObject, fromString, fromChat, fromInput]) {
      expect(r.allowed).toBe(true);
      if (!r.allowed) continue;
      if (r.call.tool === 'git_commit') expectTypeOf(r.call.args.message).toEqualTypeOf<string>();
      expect(r.call.args).toEqual(r === fromObject || r === fromString ? { message: 'm' } : {});
    }
    expect(nameOnly).toEqual({ allowed: true, name: 'git', kind: 'namespace' });
  });
});
