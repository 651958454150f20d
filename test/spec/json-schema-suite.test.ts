/**
 * The JSON Schema Test Suite through toolroute: every suite group
 * (draft 2020-12 and draft-07) becomes a tool (json-schema-suite.ts says how
 * the schema is wrapped), one spec holds them all, and it is generated as a
 * user would (`generate`).
 *
 * - Refused groups are exactly the committed list
 *   (test/fixtures/json-schema-test-suite/refused.json), each with its reason;
 *   every reason is a documented design choice (docs/design.md, docs/spec.md).
 * - Dispatch: for every accepted group, the verdict of `router.dispatch` on
 *   each case equals the suite's, except the committed format-assertion cases
 *   (toolroute checks the formats it knows; the suite's 2020-12 default is
 *   annotation only). Per file, toolroute agrees with the suite at least as
 *   often as ajv's Ajv2020 / Ajv (draft-07) on the raw suite schemas, with
 *   ajv-formats and `strict: false` so ajv compiles every schema.
 * - Types: every suite-valid instance of an accepted group type-checks
 *   against the generated argument type (one .ts file per suite file, one tsc
 *   run over all of them), except the committed list of constructs TypeScript
 *   cannot express.
 *
 * `UPDATE_SUITE_LISTS=1` rewrites the committed lists from this run (review the diff).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import AjvDraft7 from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { formatGenerateProblem, generate } from '../../generator/index.js';
import { expandParameters } from '../../generator/validate.js';
import { createRouter, type GeneratedModule } from '../../runtime/index.js';
import { loadSuite, SUITE_DIR, tsLiteral, wrapSuiteSchema, type SuiteGroup } from './json-schema-suite.js';
import { TSC_RUN } from '../setup/package-build.js';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const UPDATE = process.env.UPDATE_SUITE_LISTS === '1';
const LISTS = path.join(SUITE_DIR, 'toolroute-results.json');

interface Lists {
  /** Group id → why toolroute refuses it. */
  refused: Record<string, string>;
  /** `group id » case description` → why the verdict differs from the suite's. */
  verdictDeviations: Record<string, string>;
  /** `group id » case description` → the construct TypeScript cannot express. */
  typeExceptions: Record<string, string>;
}
const committed = JSON.parse(readFileSync(LISTS, 'utf8')) as Lists;

/** Why a group is refused, from its problem codes: the categories the docs name. */
function refusalReason(problems: readonly { code: string; message: string }[]): string {
  const codes = new Set(problems.map((p) => p.code));
  if (problems.some((p) => p.message.includes('ajv (the validator toolroute compiles)'))) return 'unevaluated* in a combination ajv evaluates wrongly (contains, if without then/else, items in a branch)';
  if (problems.some((p) => /does not compile: (can't resolve reference|"\$dynamicRef" only supports)/.test(p.message))) return 'a ref ajv cannot resolve (a $ref beside a nested $id, a $dynamicRef with a URI before its fragment)';
  if (codes.has('remote_ref')) return 'remote $ref (never fetched)';
  if (codes.has('recursive_ref')) return 'recursive schema (refused: not every target accepts recursion)';
  if (problems.some((p) => p.message.startsWith('`enum: []` matches no value'))) return 'empty enum (no call could ever be valid)';
  return `unexpected: ${problems.map((p) => `${p.code}: ${p.message}`).join('; ')}`;
}

const groups = loadSuite();
const accepted: { group: SuiteGroup; tool: string }[] = [];
const refused: Record<string, string> = {};
for (const group of groups) {
  const r = expandParameters(wrapSuiteSchema(group.schema, group.dialect));
  if (r.problems.length === 0) accepted.push({ group, tool: `suite_${accepted.length}` });
  else refused[group.id] = refusalReason(r.problems);
}

let base = '';
let gen: GeneratedModule | undefined;
let generateErrors: string[] = [];
let tscOutput = '';
let tscStatus: number | null = null;
/** Per type-test file: line → the case it checks. */
const lineCase = new Map<string, Map<number, string>>();

beforeAll(async () => {
  const root = path.join(REPO, '.tmp', 'json-schema-suite');
  mkdirSync(root, { recursive: true });
  base = mkdtempSync(path.join(root, 'run-'));
  const spec = { version: 1, tools: accepted.map(({ group, tool }) => ({ name: tool, description: `${group.id}`, parameters: wrapSuiteSchema(group.schema, group.dialect) })) };
  writeFileSync(path.join(base, 'tools.spec.json'), `${JSON.stringify(spec, null, 1)}\n`);
  const result = await generate('tools.spec.json', { out: 'out', cwd: base });
  generateErrors = result.problems.map(formatGenerateProblem);
  if (!result.ok) return;
  gen = (await import(pathToFileURL(path.join(base, 'out', 'index.ts')).href)) as GeneratedModule;

  // One type-test file per suite file: each suite-valid instance assigned to its tool's argument type.
  const files = new Map<string, string[]>();
  for (const { group, tool } of accepted) {
    const name = `${group.dialect}-${group.file.replace(/\.json$/, '')}.ts`;
    let lines = files.get(name);
    if (!lines) {
      lines = ["import type { ToolArgs } from './out/index.js';", '// @ts-expect-error a string is no arguments object (proves the file is checked)', `export const notArguments: ToolArgs[${JSON.stringify(tool)}] = "x";`];
      files.set(name, lines);
      lineCase.set(name, new Map());
    }
    group.tests.forEach((c, i) => {
      if (!c.valid) return;
      lineCase.get(name)!.set(lines!.length + 1, `${group.id} » ${c.description}`);
      lines!.push(`export const c${accepted.indexOf(accepted.find((a) => a.tool === tool)!)}_${i}: ToolArgs[${JSON.stringify(tool)}] = { value: ${tsLiteral(c.data)} };`);
    });
  }
  for (const [name, lines] of files) writeFileSync(path.join(base, name), `${lines.join('\n')}\n`);
  writeFileSync(
    path.join(base, 'tsconfig.json'),
    JSON.stringify({
      extends: path.relative(base, path.join(REPO, 'tsconfig.json')),
      compilerOptions: { noEmit: true, exactOptionalPropertyTypes: true },
      include: ['out', ...files.keys()],
      exclude: [],
    }),
  );
  const tsc = spawnSync(process.execPath, [...TSC_RUN, '--noEmit', '--pretty', 'false', '-p', base], { encoding: 'utf8' });
  tscOutput = tsc.stdout + tsc.stderr;
  tscStatus = tsc.status;
}, 600_000);

afterAll(() => {
  if (base !== '') rmSync(base, { recursive: true, force: true });
});

/** ajv on the raw suite schema, as a user would run it: strict off (so every schema compiles), ajv-formats on, and toolroute's number rule. */
const plainAjv = { draft7: freshAjv('draft7'), 'draft2020-12': freshAjv('draft2020-12') };
function freshAjv(dialect: SuiteGroup['dialect']) {
  // `multipleOfPrecision` as toolroute's validators have it (a decimal step's quotient within 1e-6 of an integer).
  const options = { strict: false, logger: false as const, multipleOfPrecision: 6 };
  const ajv = dialect === 'draft7' ? new AjvDraft7.default(options) : new Ajv2020.default(options);
  addFormats.default(ajv);
  return ajv;
}
function ajvVerdicts(group: SuiteGroup): (boolean | undefined)[] {
  // A group that declares `$id`s gets an instance of its own: another group may declare the same ids.
  const ajv = JSON.stringify(group.schema).includes('"$id"') ? freshAjv(group.dialect) : plainAjv[group.dialect];
  try {
    const validate = ajv.compile(group.schema as object);
    return group.tests.map((c) => validate(c.data) === true);
  } catch {
    return group.tests.map(() => undefined); // ajv cannot compile it (a remote ref): no verdict
  }
}

describe('JSON Schema Test Suite', () => {
  test('the refused groups are exactly the committed list, each for a documented reason', () => {
    if (UPDATE) committed.refused = refused;
    expect(refused).toEqual(committed.refused);
    expect(Object.values(refused).filter((r) => r.startsWith('unexpected'))).toEqual([]);
    // Most of the suite is accepted: the refusals are the ref machinery, not everyday keywords.
    expect(accepted.length).toBeGreaterThan(groups.length * 0.7);
  });

  test('the spec of every accepted group generates', () => {
    expect(generateErrors).toEqual([]);
    expect(gen).toBeDefined();
  });

  test('dispatch verdicts equal the suite on every case, and per file toolroute agrees at least as often as ajv', async ({ annotate }) => {
    if (!gen) throw new Error('the suite spec did not generate');
    const handlers = Object.fromEntries(accepted.map(({ tool }) => [tool, () => 'ok']));
    const router = createRouter(gen, handlers as never);
    const deviations: Record<string, string> = {};
    const perFile = new Map<string, { cases: number; toolroute: number; ajv: number }>();
    for (const { group, tool } of accepted) {
      const file = `${group.dialect}/${group.file}`;
      const stats = perFile.get(file) ?? { cases: 0, toolroute: 0, ajv: 0 };
      perFile.set(file, stats);
      const ajv = ajvVerdicts(group);
      for (const [i, c] of group.tests.entries()) {
        const r = await router.dispatch({ name: tool, arguments: JSON.stringify({ value: c.data }) });
        stats.cases++;
        if (r.ok === c.valid) stats.toolroute++;
        else deviations[`${group.id} » ${c.description}`] = r.ok ? 'accepted' : `rejected: ${JSON.stringify(r).slice(0, 300)}`;
        if (ajv[i] === c.valid) stats.ajv++;
        if (!r.ok) expect((r as { code?: string }).code, `${group.id} » ${c.description}`).toBe('invalid_arguments');
      }
    }
    if (UPDATE) committed.verdictDeviations = Object.fromEntries(Object.keys(deviations).map((k) => [k, committed.verdictDeviations[k] ?? deviations[k]!]));
    expect(Object.keys(deviations).sort()).toEqual(Object.keys(committed.verdictDeviations).sort());
    for (const [file, s] of perFile) expect(s.toolroute, `${file}: toolroute ${s.toolroute}/${s.cases}, ajv ${s.ajv}/${s.cases}`).toBeGreaterThanOrEqual(s.ajv);
    const total = [...perFile.values()].reduce((a, s) => ({ cases: a.cases + s.cases, toolroute: a.toolroute + s.toolroute, ajv: a.ajv + s.ajv }), { cases: 0, toolroute: 0, ajv: 0 });
    await annotate(`${accepted.length} of ${groups.length} groups accepted; ${total.cases} cases: toolroute agrees with the suite on ${total.toolroute}, ajv on ${total.ajv}`);
    expect(total.cases).toBeGreaterThan(1000);
    expect(total.toolroute).toBeGreaterThanOrEqual(total.ajv);
  });

  test('every suite-valid instance type-checks against the generated argument type, except constructs TypeScript cannot express', async ({ annotate }) => {
    if (!gen) throw new Error('the suite spec did not generate');
    const failing: Record<string, string> = {};
    const other: string[] = [];
    for (const line of tscOutput.split('\n').filter((l) => l.trim() !== '')) {
      const m = /^(?:.*[\\/])?([^\\/()]+\.ts)\((\d+),\d+\): error (TS\d+: .*)$/.exec(line);
      const which = m ? lineCase.get(m[1]!)?.get(Number(m[2])) : undefined;
      if (m && which) failing[which] = m[3]!.slice(0, 200);
      // The repo's own sources (read through the toolroute-source condition) are checked by
      // `npm run typecheck` with the repo's flags; only the generated folder and the instance files count here.
      else if (!/^\s/.test(line) && line.includes('.tmp/json-schema-suite/')) other.push(line);
    }
    expect(other).toEqual([]);
    if (UPDATE) committed.typeExceptions = Object.fromEntries(Object.keys(failing).map((k) => [k, committed.typeExceptions[k] ?? failing[k]!]));
    expect(Object.keys(failing).sort()).toEqual(Object.keys(committed.typeExceptions).sort());
    const checked = [...lineCase.values()].reduce((n, m) => n + m.size, 0);
    await annotate(`${checked - Object.keys(failing).length} of ${checked} suite-valid instances type-check`);
    expect(checked).toBeGreaterThan(800);
    // tsc really ran: the committed exceptions are real errors it reported.
    expect(tscStatus).not.toBe(null);
  });
});

afterAll(() => {
  if (UPDATE) writeFileSync(LISTS, `${JSON.stringify(committed, null, 2)}\n`);
});
