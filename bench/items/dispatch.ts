/**
 * Item 1 — dispatch of a namespace call (gate, parse, validate, route, call a trivial handler).
 *
 * Contenders, all awaited the same way (dispatch is async because handlers may be):
 * - toolroute: `router.dispatch(call)` with a 2-name blocklist set;
 * - minimum: `JSON.parse` of the arguments + the same precompiled validator + a direct handler call;
 * - reference: `chef.checkToolCall` + `isNamespaceCall` + `resolveNamespace` + an ajv validator compiled once
 *   + the handler, with the same blocklist.
 */
import type { ValidateFn } from '../../runtime/contract.js';
import { check, fmtNs, fmtRatio, same, timeAll, verdict, type BenchConfig, type Section } from '../lib.js';
import { lastCall, namespaceCall, type Loaded } from '../setup.js';

/** The argument template of the measured action: nested objects, enums, arrays. */
const TEMPLATE = 'search';

function contenders(l: Loaded) {
  const nc = namespaceCall(l.made, TEMPLATE);
  const blocked = l.made.spec.policies?.['prod'] ?? [];
  l.router.setBlockedTools(blocked);
  const pruner = l.ref.chef.getPruner();
  pruner.setBlockedTools(blocked);

  const toolIndex = l.gen.spec.tools.findIndex((t) => t.name === nc.action);
  const tool = l.gen.spec.tools[toolIndex];
  if (!tool) throw new Error(`bench: ${nc.action} not in the generated spec`);
  const validate = l.gen.spec.validators[tool.validator] as ValidateFn;
  const handler = l.handlers[nc.action] as (args: unknown) => unknown;
  const refHandlers = l.handlers;
  const chef = l.ref.chef;
  const call = nc.call;

  const toolroute = () => l.router.dispatch(call);
  const minimum = async () => {
    const parsed = JSON.parse(call.arguments) as { args: unknown };
    if (!validate(parsed.args)) throw new Error('invalid');
    return await handler(parsed.args);
  };
  const minimumSync = () => {
    const parsed = JSON.parse(call.arguments) as { args: unknown };
    if (!validate(parsed.args)) throw new Error('invalid');
    return handler(parsed.args);
  };
  const reference = async () => {
    const gate = chef.checkToolCall(call);
    if (!gate.allowed) throw new Error(gate.reason);
    if (!pruner.isNamespaceCall(call)) throw new Error('not a namespace call');
    const { toolName, args } = pruner.resolveNamespace(call);
    if (!l.ref.validator(toolName)(args)) throw new Error('invalid');
    return await (refHandlers[toolName] as (a: unknown) => unknown)(args);
  };
  return { nc, toolroute, minimum, minimumSync, reference };
}

/** Same answers before any timing: the right handler, the validated arguments, nothing rejected. */
async function checkAnswers(l: Loaded, c: ReturnType<typeof contenders>): Promise<void> {
  lastCall.tool = null;
  const minResult = await c.minimum();
  check(`${l.made.id}: minimum reached ${c.nc.action}`, lastCall.tool === c.nc.action);
  lastCall.tool = null;
  const got = await c.toolroute();
  check(`${l.made.id}: dispatch(${c.nc.namespace}.${c.nc.action}) is ok (got ${JSON.stringify(got).slice(0, 300)})`, got.ok);
  check(`${l.made.id}: dispatch routed to ${c.nc.action} (handler saw ${lastCall.tool})`, lastCall.tool === c.nc.action);
  if (got.ok) {
    same(`${l.made.id}: dispatch result is the handler's result`, got.result, minResult);
    same(`${l.made.id}: dispatch result tool`, got.tool, c.nc.action);
  }
  lastCall.tool = null;
  const refResult = await c.reference();
  check(`${l.made.id}: reference reached ${c.nc.action}`, lastCall.tool === c.nc.action);
  same(`${l.made.id}: reference handler got the call's arguments`, refResult, c.nc.args);
  // A blocked action must not reach its handler (a fast router that skips the gate cannot win).
  const blocked = l.made.spec.policies?.['prod']?.[0];
  const blockedNs = (l.made.spec.namespaces ?? []).find((n) => n.tools.some((t) => (typeof t === 'string' ? t : t.name) === blocked));
  if (blocked && blockedNs) {
    lastCall.tool = null;
    const r = await l.router.dispatch({ name: blockedNs.name, arguments: JSON.stringify({ action: blocked, args: {} }) });
    check(`${l.made.id}: blocked ${blocked} rejected as blocked (got ${JSON.stringify(r).slice(0, 200)})`, !r.ok && r.code === 'blocked' && lastCall.tool === null);
  }
  // Invalid arguments must be rejected.
  const bad = await l.router.dispatch({ name: c.nc.call.name, arguments: JSON.stringify({ action: c.nc.action, args: { query: 42 } }) });
  check(`${l.made.id}: invalid arguments rejected (got ${JSON.stringify(bad).slice(0, 200)})`, !bad.ok && bad.code === 'invalid_arguments');
}

/**
 * Run item 1.
 *
 * @example
 * const section = await benchDispatch(config, loaded1000, loaded10, loaded10000);
 */
export async function benchDispatch(config: BenchConfig, at1000: Loaded, small: Loaded, large: Loaded | null): Promise<Section> {
  const main = contenders(at1000);
  await checkAnswers(at1000, main);
  const t = await timeAll(config, [
    { name: 'toolroute', fn: main.toolroute },
    { name: 'minimum', fn: main.minimum },
    { name: 'minimumSync', fn: main.minimumSync },
    { name: 'reference', fn: main.reference },
  ]);
  const tr = t['toolroute'] as number;
  const min = t['minimum'] as number;
  const minSync = t['minimumSync'] as number;
  const ref = t['reference'] as number;

  const rows: string[][] = [
    ['toolroute `dispatch`', fmtNs(tr), fmtRatio(tr / min), fmtRatio(ref / tr)],
    ['minimum (parse + same validator + await handler)', fmtNs(min), '1.00×', fmtRatio(ref / min)],
    ['minimum, not awaited (info)', fmtNs(minSync), fmtRatio(minSync / min), fmtRatio(ref / minSync)],
    ['reference (checkToolCall + isNamespaceCall + resolveNamespace + ajv)', fmtNs(ref), fmtRatio(ref / min), '1.00×'],
  ];
  const verdicts = [
    verdict('toolroute ≤ 1.25× minimum (1,000 tools)', fmtRatio(tr / min), tr / min <= 1.25),
    verdict('toolroute ≥ 5× faster than reference', fmtRatio(ref / tr), ref / tr >= 5),
  ];

  // By size: toolroute and the reference at every size, interleaved in one timing pass so drift hits them alike.
  const sized: Loaded[] = [small, at1000, ...(large ? [large] : [])];
  const perSize = sized.map((l) => ({ l, c: l === at1000 ? main : contenders(l) }));
  for (const { l, c } of perSize) if (l !== at1000) await checkAnswers(l, c);
  const s = await timeAll(
    config,
    perSize.flatMap(({ l, c }) => [
      { name: `${l.made.id}:toolroute`, fn: c.toolroute },
      { name: `${l.made.id}:reference`, fn: c.reference },
    ]),
  );
  const at = (l: Loaded, k: string) => s[`${l.made.id}:${k}`] as number;
  const sizeRows: string[][] = sized.map((l) => [
    `${l.made.tools.length.toLocaleString('en-US')} tools: toolroute / reference`,
    `${fmtNs(at(l, 'toolroute'))} / ${fmtNs(at(l, 'reference'))}`,
    `${fmtRatio(at(l, 'toolroute') / at(small, 'toolroute'))} / ${fmtRatio(at(l, 'reference') / at(small, 'reference'))}`,
    fmtRatio(at(l, 'reference') / at(l, 'toolroute')),
  ]);
  if (large) {
    const r = at(large, 'toolroute') / at(small, 'toolroute');
    verdicts.push(verdict('dispatch at 10,000 tools ≤ 1.1× at 10', fmtRatio(r), r <= 1.1));
  }
  return {
    title: `1. Dispatch of a namespace call (\`${main.nc.namespace}\` → \`${main.nc.action}\`, 1,000-tool spec)`,
    header: ['contender', 'time / call', 'vs minimum', 'reference ÷ this'],
    rows: [...rows, ['**by spec size**', '', 'vs same at 10 tools', ''], ...sizeRows],
    verdicts,
    notes: [
      'Every contender is awaited per call (dispatch is async because handlers may be). The checked call has nested objects, enums and arrays; the same argument schema is used at every size.',
    ],
  };
}
