/**
 * Dispatch against the honest floor.
 *
 * Cases: a namespace call and a flat call, each with a sync and an async
 * handler, at 10, 1,000 and 10,000 tools (the same argument schema at every
 * size, so the sizes compare the router, not the validator). Per case, paired
 * rounds of:
 * - toolroute: `router.dispatch(call)`, with a 2-name blocklist set;
 * - floor: the least work that gives the same answer: `JSON.parse` of the
 *   text, an ajv validator of the tool's schema (`floorValidator`, checked
 *   below to accept and reject exactly what dispatch does), and the handler
 *   settled the way dispatch settles it: `Promise.resolve(handler(args))` for
 *   a sync handler, `await handler(args)` in an async function for an async one.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import type { JsonObject } from '../make-spec.js';
import { check, fmtNs, fmtPaired, fmtRatio, same, timePaired, verdict, type BenchConfig, type Section, type Verdict } from '../lib.js';
import { flatCall, lastCall, namespaceCall, type BenchRouter, type Loaded } from '../setup.js';

/** The argument template of the measured tool: nested objects, enums, arrays. */
export const TEMPLATE = 'search';
/** The target: dispatch at most this many times the floor. */
const FLOOR_TARGET = 1.5;

type Shape = 'namespace' | 'flat';
type Settle = 'sync' | 'async';
/** A tool call as the model sends it. */
export type Call = { readonly name: string; readonly arguments: string };

const ajv = new Ajv({ allErrors: true });
const compiled = new Map<string, ValidateFunction>();

/**
 * The floor's validator of a schema: ajv, with `allErrors` because dispatch
 * reports every error to the model (the same answer on a bad call needs them
 * all). One per distinct schema text.
 *
 * @example
 * floorValidator(schema)({ query: 'x' }); // true
 */
export function floorValidator(schema: JsonObject): ValidateFunction {
  const key = JSON.stringify(schema);
  let v = compiled.get(key);
  if (!v) compiled.set(key, (v = ajv.compile(schema)));
  return v;
}

/** The spec's argument schema of a tool. */
export function schemaOf(l: Loaded, tool: string): JsonObject {
  const def = l.ref.defs.get(tool);
  if (!def) throw new Error(`bench: ${tool} not in the spec`);
  return def.parameters;
}

/** One measured case. */
export interface Case {
  readonly shape: Shape;
  readonly settle: Settle;
  readonly tool: string;
  readonly args: JsonObject;
  readonly call: Call;
  readonly router: BenchRouter;
  /** Builds the call for other argument values (agreement checks). */
  readonly callWith: (args: unknown) => Call;
  readonly validate: ValidateFunction;
  readonly toolroute: () => Promise<unknown>;
  readonly floor: () => Promise<unknown>;
}

/**
 * A measured case: the call, the router, the floor (also used by the peers item).
 *
 * @example
 * const c = dispatchCase(loaded, 'flat', 'sync'); await c.toolroute();
 */
export function dispatchCase(l: Loaded, shape: Shape, settle: Settle): Case {
  const blocked = l.made.spec.policies?.['prod'] ?? [];
  l.router.setBlockedTools(blocked);
  l.asyncRouter.setBlockedTools(blocked);
  const picked =
    shape === 'namespace'
      ? (() => {
          const nc = namespaceCall(l.made, TEMPLATE);
          return { tool: nc.action, args: nc.args, call: nc.call, callWith: (args: unknown) => ({ name: nc.namespace, arguments: JSON.stringify({ action: nc.action, args }) }) };
        })()
      : (() => {
          const fc = flatCall(l.made, TEMPLATE);
          return { tool: fc.tool, args: fc.args, call: fc.call, callWith: (args: unknown) => ({ name: fc.tool, arguments: JSON.stringify(args) }) };
        })();
  const validate = floorValidator(schemaOf(l, picked.tool));
  const router = settle === 'sync' ? l.router : l.asyncRouter;
  const handler = (settle === 'sync' ? l.handlers : l.asyncHandlers)[picked.tool] as (args: unknown) => unknown;
  const raw = picked.call.arguments;
  // A namespace call's arguments are `{ action, args }`: the floor reads `args` from the parsed envelope.
  const argsOf = shape === 'namespace' ? (text: string) => (JSON.parse(text) as { args: unknown }).args : (text: string) => JSON.parse(text) as unknown;
  const floor =
    settle === 'sync'
      ? () => {
          const args = argsOf(raw);
          if (!validate(args)) return Promise.reject(new Error('invalid'));
          return Promise.resolve(handler(args));
        }
      : async () => {
          const args = argsOf(raw);
          if (!validate(args)) throw new Error('invalid');
          return await handler(args);
        };
  return { shape, settle, ...picked, router, validate, toolroute: () => router.dispatch(picked.call), floor };
}

/**
 * Argument values around a valid one: every required key dropped, extra keys
 * (plain and `Object.prototype`-named), every value replaced by other JSON
 * kinds, recursively one level into objects. Some are valid, most are not;
 * the agreement checks need both.
 *
 * @example
 * variants({ query: 'x' }).length; // dozens
 */
export function variants(valid: JsonObject): unknown[] {
  const others: unknown[] = [0, 1.5, -1, 1000, '', 'x', true, null, [], ['open'], {}, { from: 'a', to: 'b' }];
  const out: unknown[] = [valid, {}, [], 'text', null, { ...valid, extra: 1 }, { ...valid, toString: 'x' }, { ...valid, constructor: {} }];
  for (const key of Object.keys(valid)) {
    const { [key]: _dropped, ...rest } = valid;
    void _dropped;
    out.push(rest);
    for (const o of others) out.push({ ...valid, [key]: o });
    const value = valid[key];
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const inner of variants(value as JsonObject).slice(0, 40)) out.push({ ...valid, [key]: inner });
    }
  }
  out.push({ ...valid, filters: { status: ['bogus'] } }, { ...valid, filters: { created: { from: 'a' } } }, { ...valid, filters: { hasOwnProperty: 'x' } });
  return out;
}

/** Same answers before any timing: routing, results, the gate, and floor/dispatch agreement on many values. */
async function checkCase(l: Loaded, c: Case): Promise<{ accepted: number; rejected: number }> {
  const where = `${l.made.id} ${c.shape} ${c.settle}`;
  lastCall.tool = null;
  const floorResult = await c.floor();
  check(`${where}: floor reached ${c.tool}`, lastCall.tool === c.tool);
  same(`${where}: floor handler got the call's arguments`, floorResult, c.args);
  lastCall.tool = null;
  const got = (await c.toolroute()) as Awaited<ReturnType<BenchRouter['dispatch']>>;
  check(`${where}: dispatch ok (got ${JSON.stringify(got).slice(0, 300)})`, got.ok);
  check(`${where}: dispatch routed to ${c.tool} (handler saw ${lastCall.tool})`, lastCall.tool === c.tool);
  if (got.ok) {
    same(`${where}: dispatch result is the handler's result`, got.result, floorResult);
    same(`${where}: dispatch result tool`, got.tool, c.tool);
  }
  // A blocked tool must not reach its handler: a router that skips the gate cannot win.
  const blocked = l.made.spec.policies?.['prod']?.[0];
  const blockedNs = (l.made.spec.namespaces ?? []).find((n) => n.tools.some((t) => (typeof t === 'string' ? t : t.name) === blocked));
  if (blocked && blockedNs) {
    lastCall.tool = null;
    const r = await c.router.dispatch({ name: blockedNs.name, arguments: JSON.stringify({ action: blocked, args: {} }) });
    check(`${where}: blocked ${blocked} rejected as blocked (got ${JSON.stringify(r).slice(0, 200)})`, !r.ok && r.code === 'blocked' && lastCall.tool === null);
  }
  let accepted = 0;
  let rejected = 0;
  for (const value of variants(c.args)) {
    const floorOk = c.validate(value);
    lastCall.tool = null;
    const r = await c.router.dispatch(c.callWith(value));
    // Non-object arguments are refused before validation (malformed_arguments).
    check(
      `${where}: floor validator and dispatch agree on ${JSON.stringify(value)} (floor ${floorOk}, dispatch ${JSON.stringify(r).slice(0, 200)})`,
      floorOk === r.ok && (r.ok || r.code === 'invalid_arguments' || r.code === 'malformed_arguments'),
    );
    if (r.ok) {
      accepted++;
      same(`${where}: accepted ${JSON.stringify(value)} reached the handler unchanged`, r.result, value);
    } else {
      rejected++;
      check(`${where}: rejected value did not reach the handler`, lastCall.tool === null);
    }
  }
  check(`${where}: the agreement check saw both accepted (${accepted}) and rejected (${rejected}) values`, accepted >= 2 && rejected >= 10);
  return { accepted, rejected };
}

function label(l: Loaded, shape: Shape, settle: Settle): string {
  return `${l.made.tools.length.toLocaleString('en-US')} tools, ${shape} call, ${settle} handler`;
}

/**
 * Run the dispatch item.
 *
 * @example
 * const section = await benchDispatch(config, [loaded10, loaded1000, loaded10000]);
 */
export async function benchDispatch(config: BenchConfig, sized: readonly Loaded[]): Promise<Section> {
  const rows: string[][] = [];
  const verdicts: Verdict[] = [];
  let agreement = { accepted: 0, rejected: 0 };
  let worst = 0;
  for (const l of sized) {
    for (const shape of ['namespace', 'flat'] as const) {
      for (const settle of ['sync', 'async'] as const) {
        const c = dispatchCase(l, shape, settle);
        const a = await checkCase(l, c);
        agreement = { accepted: agreement.accepted + a.accepted, rejected: agreement.rejected + a.rejected };
        const t = await timePaired(config, 'floor', [
          { name: 'floor', fn: c.floor },
          { name: 'toolroute', fn: c.toolroute },
        ]);
        const tr = t['toolroute']!;
        worst = Math.max(worst, tr.ratio);
        rows.push([label(l, shape, settle), fmtNs(t['floor']!.ns), fmtNs(tr.ns), fmtPaired(tr)]);
        verdicts.push(verdict(`${label(l, shape, settle)}: ≤ ${FLOOR_TARGET}× the floor`, fmtPaired(tr), tr.ratio <= FLOOR_TARGET));
      }
    }
  }
  verdicts.unshift(verdict(`every case ≤ ${FLOOR_TARGET}× the honest floor (worst)`, fmtRatio(worst), worst <= FLOOR_TARGET));
  return {
    title: 'Dispatch against the honest floor',
    header: ['case', 'floor / call', 'toolroute / call', 'toolroute ÷ floor (IQR)'],
    rows,
    verdicts,
    notes: [
      'Floor: `JSON.parse` + an ajv validator of the tool\'s schema (`allErrors`, as dispatch reports every error) + the handler settled as dispatch settles it (`Promise.resolve(handler(args))` for the sync handler, `await` in an async function for the async one). ' +
        `Before timing, the floor's validator and toolroute's dispatch were checked to accept and reject the same ${agreement.accepted + agreement.rejected} argument values (${agreement.accepted} accepted, ${agreement.rejected} rejected, over all cases), every rejected value to stay away from the handler, and a blocked tool to be refused.`,
      'Each row is one paired comparison: per round, each contender runs a batch of calls (order rotated) and the ratio is taken within the round; the table shows the median ratio over rounds with its interquartile range, and the median time per call. toolroute\'s router carries a 2-name blocklist.',
    ],
  };
}
