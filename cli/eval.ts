/**
 * `toolroute eval <spec> <cases> [--json]`: the routing evaluation (search/eval.ts) of a spec's router, built in memory
 * as codegen would build it (the ranked search included). Exit 0 when every case passes under its gate, 1 when one
 * fails, 2 for a usage or configuration mistake (an unreadable or invalid case file, a name that is no flat tool, a
 * spec with problems).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CliIO } from './main.js';
import { createRouter } from '../runtime/router.js';
import { specFromData } from '../runtime/spec-data.js';
import { Suggester } from '../runtime/suggest.js';
import { buildEmitContext, DEFAULT_RUNTIME_IMPORT } from '../generator/emit/context.js';
import { specData } from '../generator/emit/spec.js';
import { loadSpec, loadText } from '../generator/load.js';
import { errorCode } from '../generator/load/common.js';
import { normalizeSpec } from '../generator/normalize.js';
import { formatProblem } from '../generator/problems.js';
import { validateSpec } from '../generator/validate.js';
import { ToolSearch } from '../search/index.js';
import { evalReport, formatEvalText, readCases } from '../search/eval.js';

/**
 * Runs `toolroute eval`; returns the exit code.
 * @example
 * await evalCommand('tools.spec.yaml', 'routing.cases.yaml', { json: false }, io); // → 0 when every case passes
 */
export async function evalCommand(specFile: string, casesFile: string, options: { readonly json?: boolean }, io: CliIO): Promise<number> {
  const fail = (message: string): number => {
    io.stderr(`toolroute eval: ${message}\n`);
    return 2;
  };
  let text: string;
  try {
    text = await readFile(path.resolve(io.cwd, casesFile), 'utf8');
  } catch (err) {
    // The error's code, not its message: the message names the absolute path.
    return fail(`cannot read ${casesFile} (${errorCode(err)}).`);
  }
  // Read as a spec is read: a byte order mark skipped, every problem with its line and column, a duplicate key or a YAML
  // warning (an unknown tag) an error rather than a value the file does not say.
  const cases = loadText(text, casesFile, /\.json$/i.test(casesFile) ? 'json' : 'yaml');
  if (!cases.ok) return fail(`${casesFile} is not valid:\n${cases.problems.map(formatProblem).join('\n')}`);
  const read = readCases(cases.spec.value);
  if (!read.ok) return fail(`${casesFile}:\n${read.problems.map((p) => `  ${p}`).join('\n')}`);

  const loaded = await loadSpec(specFile, { cwd: io.cwd });
  const problems = loaded.ok ? validateSpec(loaded.spec).filter((p) => p.severity !== 'warning') : loaded.problems;
  if (!loaded.ok || problems.length > 0) return fail(`the spec has problems; fix them first:\n${problems.map(formatProblem).join('\n')}`);
  const ir = normalizeSpec(loaded.spec);
  const ctx = buildEmitContext(ir, { specDisplay: loaded.spec.file, outDisplay: '.', runtimeImport: DEFAULT_RUNTIME_IMPORT, version: '0' });
  // The router codegen's folder gives, without writing it: no handler runs, so validators are not needed.
  const spec = specFromData(specData(ctx), { directoryXml: ctx.directoryXml, validators: ctx.validators.map(() => () => true) });
  const handlers = Object.fromEntries(spec.tools.map((t) => [t.name, () => null]));
  const router = createRouter({ spec, loadSearch: async () => new ToolSearch() }, handlers);

  const flat = new Set(spec.flat.map((i) => spec.tools[i]!.name));
  const unknown = [...new Set(read.cases.flatMap((c) => [...c.keep, ...c.drop]).filter((n) => !flat.has(n)))];
  if (unknown.length > 0) {
    // Each name with what it is instead: a grouped tool by its groups, a typo by the closest flat tools.
    const suggester = new Suggester(flat);
    const groupsOf = (name: string) =>
      [...spec.namespaces.map((g) => ({ g, kind: 'namespace' })), ...spec.toolkits.map((g) => ({ g, kind: 'toolkit' }))]
        .filter(({ g }) => g.tools.some((i) => spec.tools[i]!.name === name))
        .map(({ g, kind }) => `${kind} ${JSON.stringify(g.name)}`);
    const named = unknown.map((name) => {
      const groups = groupsOf(name);
      if (groups.length > 0) return `${JSON.stringify(name)} (a tool of ${groups.join(' and ')})`;
      const closest = suggester.closest(name);
      return `${JSON.stringify(name)}${closest.length > 0 ? ` (did you mean ${closest.map((c) => JSON.stringify(c)).join(' or ')}?)` : ''}`;
    });
    const list = flat.size === 0 ? 'the spec has no flat tools' : flat.size <= 30 ? `flat tools: ${[...flat].join(', ')}` : `${flat.size} flat tools`;
    return fail(`${casesFile} names ${named.join(', ')}, which ${unknown.length === 1 ? 'is' : 'are'} no flat tool of ${specFile} (pruneByTask and rankByTask select flat tools); ${list}.`);
  }
  const scored = [];
  for (const c of read.cases) {
    const ranked = await router.rankByTask(c.task, { k: c.k });
    scored.push({ c, kept: { pruneByTask: router.pruneByTask(c.task).tools.map((t) => t.name), rankByTask: ranked.tools.map((t) => t.name) } });
  }
  const report = evalReport(specFile, scored);
  io.stdout(options.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatEvalText(report));
  return report.failed === 0 ? 0 : 1;
}
