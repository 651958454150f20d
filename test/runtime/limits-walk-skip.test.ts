/**
 * Dispatch skips the argument walk for depth and non-finite numbers where the
 * tool's schema already rules both out for a valid call (the generator's
 * `validatorDepths`, generator/emit/arg-bound.ts), and walks a rejected call
 * first. The promise: it rejects exactly what it rejected before, with the
 * same code and reason. Checked against an oracle router over the same
 * generated folder with `validatorDepths` removed (so every call is walked,
 * as before) and to the walk of the text run on its own, for schemas of each kind, `1e999` / `-1e999` / a 400-digit
 * number and nesting past `maxDepth` at every position, in every call form
 * (flat, namespace `{ action, args }`, flattened namespace, OpenAI Responses
 * native namespace, `checkToolCall`), under the default limits and under a
 * `maxDepth` the bounds do not fit in.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generate } from '../../generator/index.js';
import { createRouter, type GeneratedModule, type RouterOptions } from '../../runtime/index.js';
import { DEFAULT_LIMITS, parseArguments } from '../../runtime/call-shape.js';
import { malformedReason, quote } from '../../runtime/reasons.js';
import { removeDir, tempDir } from '../generator/helpers.js';

const closed = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ type: 'object', properties, additionalProperties: false, ...extra });

/** One schema of each kind, with a valid arguments text and the bound the generator must record. */
const KINDS: Record<string, { schema: Record<string, unknown>; valid: string; bound: number }> = {
  // Closed and typed: depth 3 (root, filters, filters.status).
  typed: {
    schema: closed(
      {
        q: { type: 'string' },
        n: { type: 'number' },
        limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
        filters: closed({ status: { type: 'array', items: { type: 'string', enum: ['open', 'closed'] } }, range: closed({ from: { type: 'string' } }) }),
      },
      { required: ['q'] },
    ),
    valid: '{"q":"x","n":1.5,"limit":3,"filters":{"status":["open"],"range":{"from":"a"}}}',
    bound: 3,
  },
  // An untyped member holds anything: unbounded, always walked.
  free: { schema: closed({ q: { type: 'string' }, meta: {} }), valid: '{"q":"x","meta":{"a":[1,{"b":2}]}}', bound: 0 },
  // An open object: unbounded.
  open: { schema: { type: 'object', properties: { q: { type: 'string' } } }, valid: '{"q":"x","extra":[[1]]}', bound: 0 },
  // An array of anything: unbounded.
  list: { schema: closed({ xs: { type: 'array' } }), valid: '{"xs":[1,[2,[3]]]}', bound: 0 },
  // Unions and literals: bounded by the deepest branch / literal.
  union: { schema: closed({ v: { anyOf: [{ type: 'number' }, { type: 'array', items: { type: 'integer' } }] }, mode: { enum: ['a', { k: [1] }] } }), valid: '{"v":[1,2],"mode":{"k":[1]}}', bound: 3 },
};

/** Nested arrays, `depth` levels deep. */
const nest = (depth: number, inner = '1'): string => '['.repeat(depth) + inner + ']'.repeat(depth);

/** Argument texts around a valid one: non-finite numbers and deep nesting at every position, plus plain invalid ones. */
function variants(valid: string): string[] {
  const parsed = JSON.parse(valid) as Record<string, unknown>;
  const out = [valid, '{}', '{"q":1}', '{"zzz":1}'];
  const bad = ['1e999', '-1e999', `1${'0'.repeat(400)}`, nest(3), nest(63), nest(64), nest(65), nest(500), nest(2, '1e999'), '{"a":{"b":{"c":[[1e999]]}}}'];
  for (const key of [...Object.keys(parsed), 'extra']) {
    for (const b of bad) {
      const copy = { ...parsed, [key]: '\u0000' };
      out.push(JSON.stringify(copy).replace('"\\u0000"', b));
    }
  }
  // Inside nested values too: a number deep in a valid shape.
  out.push(valid.replace('1.5', '1e999'), valid.replace('"a"', '1e999'), valid.replace('[1,2]', '[1,1e999]'), valid.replace('"open"', nest(70)));
  return [...new Set(out)];
}

let dir = '';
let gen: GeneratedModule;
const handlers: Record<string, (args: unknown) => unknown> = {};

beforeAll(async () => {
  dir = tempDir('limits-walk-');
  const tools = Object.entries(KINDS).map(([name, k]) => ({ name, description: `${name} tool`, parameters: k.schema }));
  const actions = Object.entries(KINDS).map(([name, k]) => ({ name: `ns_${name}`, description: `${name} action`, parameters: k.schema }));
  const spec = { version: 1, tools, namespaces: [{ name: 'ns', description: 'actions', tools: actions }] };
  writeFileSync(path.join(dir, 'spec.json'), JSON.stringify(spec));
  const result = await generate('spec.json', { out: 'out', cwd: dir });
  expect(result.problems).toEqual([]);
  gen = (await import(pathToFileURL(path.join(dir, 'out', 'index.ts')).href)) as GeneratedModule;
  for (const t of gen.spec.tools) handlers[t.name] = (args) => args;
}, 120_000);
afterAll(() => removeDir(dir));

/**
 * What the call gave before the walk could be skipped: the walk of its
 * arguments text ran first (`parseArguments`, independent of the router's
 * resolution), and its failure was the result; otherwise what the router
 * without bounds gives.
 */
function walkedFirst(call: { name: string; arguments: string; namespace?: string; call_id?: string }, others: unknown, maxDepth: number | undefined): unknown {
  const walked = parseArguments(call.arguments, { ...DEFAULT_LIMITS, ...(maxDepth === undefined ? {} : { maxDepth }) });
  if (walked.ok) return others;
  const label = call.namespace === undefined ? quote(call.name) : `${quote(call.namespace)} action ${quote(call.name)}`;
  return { ok: false, code: walked.code, reason: malformedReason(label, walked.problem), callId: call.call_id };
}

/** The same folder with the bounds removed: every flat call walked, as before they existed. */
function oracleOf(): GeneratedModule {
  const { validatorDepths: _dropped, ...rest } = gen.spec;
  void _dropped;
  return { spec: rest } as GeneratedModule;
}

describe('skipping the argument walk', () => {
  test('the generator records the bound of each kind of schema', () => {
    for (const [name, k] of Object.entries(KINDS)) {
      const tool = gen.spec.tools.find((t) => t.name === name)!;
      expect(gen.spec.validatorDepths?.[tool.validator], name).toBe(k.bound);
    }
  });

  for (const [label, options] of [
    ['default limits', {}],
    ['maxDepth 3 (the namespace envelope no longer fits the bound)', { maxDepth: 3 }],
    ['maxDepth 2 (no bound fits)', { maxDepth: 2 }],
  ] as const) {
    test(`every call form rejects exactly what a walked call rejects, same code and reason: ${label}`, async () => {
      const opts = options as RouterOptions;
      const fast = createRouter(gen as never, handlers as never, opts);
      const oracle = createRouter(oracleOf() as never, handlers as never, opts);
      const codes = new Map<string, number>();
      let calls = 0;
      for (const name of Object.keys(KINDS)) {
        for (const text of variants(KINDS[name]!.valid)) {
          const flattened = text === '{}' ? `{"action":"ns_${name}"}` : `{"action":"ns_${name}",${text.slice(1)}`;
          const forms: { name: string; arguments: string; namespace?: string; call_id?: string; type?: string }[] = [
            { name, arguments: text },
            { name: 'ns', arguments: `{"action":"ns_${name}","args":${text}}` },
            { name: 'ns', arguments: flattened },
            { type: 'function_call', call_id: 'c1', namespace: 'ns', name: `ns_${name}`, arguments: text },
            // Rejections for other reasons than the arguments' schema walk first too.
            { name: 'ns', arguments: `{"action":"ns_nope","args":${text}}` },
            { name: 'ns', arguments: `{"action":"ns_${name}","args":${text},"stray":1}` },
          ];
          for (const call of forms) {
            const got = await fast.dispatch(call);
            expect(got, JSON.stringify(call)).toEqual(walkedFirst(call, await oracle.dispatch(call), opts.maxDepth));
            const check = fast.checkToolCall(call as never);
            const want = walkedFirst(call, oracle.checkToolCall(call as never), opts.maxDepth) as { ok?: boolean; callId?: unknown };
            expect(check, JSON.stringify(call)).toEqual(want.ok === false ? { allowed: false, code: (want as { code: string }).code, reason: (want as { reason: string }).reason } : want);
            const code = got.ok ? 'ok' : got.code;
            codes.set(code, (codes.get(code) ?? 0) + 1);
            calls++;
          }
        }
      }
      // Not vacuous: valid calls, schema rejections and limit rejections all came up.
      expect(calls).toBeGreaterThan(1000);
      expect(codes.get('ok')).toBeGreaterThan(10);
      expect(codes.get('invalid_arguments')).toBeGreaterThan(10);
      expect(codes.get('malformed_arguments')).toBeGreaterThan(100);
    });
  }

  test('1e999 and nesting past maxDepth are malformed_arguments for a bounded schema, in a valid position and an unknown one', async () => {
    const router = createRouter(gen as never, handlers as never);
    const typed = JSON.parse(KINDS['typed']!.valid) as Record<string, unknown>;
    const cases = [
      ['{"q":"x","n":1e999}', 'not_json_data'],
      ['{"q":"x","n":-1e999}', 'not_json_data'],
      ['{"q":"x","limit":1e999}', 'not_json_data'],
      ['{"q":"x","extra":1e999}', 'not_json_data'],
      [`{"q":"x","filters":{"status":${nest(70, '"open"')}}}`, 'too_deep'],
      [`{"q":"x","extra":${nest(70)}}`, 'too_deep'],
    ] as const;
    for (const [text, kind] of cases) {
      for (const call of [{ name: 'typed', arguments: text }, { name: 'ns', arguments: `{"action":"ns_typed","args":${text}}` }]) {
        const r = await router.dispatch(call);
        expect(r, text).toMatchObject({ ok: false, code: 'malformed_arguments' });
        if (!r.ok) expect(r.reason, text).toMatch(kind === 'too_deep' ? /nested deeper than 64 levels/ : /must be JSON data; got -?Infinity/);
      }
    }
    expect(await router.dispatch({ name: 'typed', arguments: JSON.stringify(typed) })).toMatchObject({ ok: true, result: typed });
  });
});
