/**
 * The types of defaults: with `applyDefaults: true`
 * (test/fixtures/apply-defaults), a property whose default the validator
 * fills is required in the handler's argument type; one it does not fill (in
 * an anyOf branch, named like an Object.prototype member, or with the option
 * off) stays optional. Checked by `npx tsc -p .` (expectTypeOf,
 * @ts-expect-error, satisfies twins); the runtime half is
 * test/runtime/apply-defaults.test.ts.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { EchoArgs, Handlers, NotifyArgs, ReadFileArgs, SearchArgs } from '../fixtures/apply-defaults/expected/index.js';
import type { ReadFileArgs as ExampleReadFileArgs } from '../fixtures/example/expected/index.js';

describe('defaulted properties are required for the handler', () => {
  it('top level, nested objects and array items', () => {
    expectTypeOf<SearchArgs['limit']>().toEqualTypeOf<number>();
    expectTypeOf<SearchArgs['mode']>().toEqualTypeOf<'literal' | 'regex'>();
    expectTypeOf<NonNullable<SearchArgs['options']>['case_sensitive']>().toEqualTypeOf<boolean>();
    expectTypeOf<NonNullable<SearchArgs['filters']>[number]['op']>().toEqualTypeOf<'eq' | 'ne'>();
    // An object without a default of its own stays optional: only its members are filled.
    expectTypeOf<SearchArgs>().toHaveProperty('options');
    const filled = { query: 'x', limit: 10, mode: 'literal' } satisfies SearchArgs;
    // @ts-expect-error -- `limit` and `mode` are always present for the handler
    const missing: SearchArgs = { query: 'x' };
    void missing;
    expect(filled.limit).toBe(10);
  });

  it('a namespace action, and the handler reads them without a fallback', () => {
    expectTypeOf<ReadFileArgs['encoding']>().toEqualTypeOf<'utf8' | 'base64'>();
    const handler: Handlers['read_file'] = (args) => args.encoding.toUpperCase();
    expect(handler({ path: 'a', encoding: 'utf8' }, {} as never)).toBe('UTF8');
    // The same property without the option (the example spec) is optional.
    expectTypeOf<ExampleReadFileArgs['encoding']>().toEqualTypeOf<'utf8' | 'base64' | undefined>();
  });

  it('allOf fills, an anyOf branch does not', () => {
    const sms = { channel: 'ops', sms: '+351', retries: 3 } satisfies NotifyArgs;
    // @ts-expect-error -- `retries` (allOf) is filled, so the handler always has it
    const noRetries: NotifyArgs = { channel: 'ops', sms: '+351' };
    void noRetries;
    // `urgent` sits in an anyOf branch: ajv never fills it, so `sms` above type-checks without it.
    const withUrgent = { channel: 'ops', sms: '+351', retries: 0, urgent: false } satisfies NotifyArgs;
    expect([sms.retries, withUrgent.urgent]).toEqual([3, false]);
  });

  it('a property named like an Object.prototype member stays optional (never filled)', () => {
    expectTypeOf<EchoArgs['text']>().toEqualTypeOf<string>();
    // Left out, `toString` is the member every object inherits, and the type says so: `{ text: '' }` is an EchoArgs.
    expectTypeOf<EchoArgs['toString']>().toEqualTypeOf<string | Object['toString'] | undefined>();
    const echo = { text: '' } satisfies EchoArgs;
    // @ts-expect-error -- `text` is filled, so it is required
    const noText: Pick<EchoArgs, 'text'> = {};
    void noText;
    expect(echo.text).toBe('');
  });
});
