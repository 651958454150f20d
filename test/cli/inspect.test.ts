/**
 * `toolroute inspect`: the numbers against an independent measurement (the
 * committed generated/ folder of the example, a router built on it, the
 * model's own `load_toolkit` calls, gpt-tokenizer on the JSON), the three
 * output forms through the spawned CLI, spec text escaped in every form, and
 * the HTML page opened in headless Chromium, checked by what it renders (table
 * text, the chart's bars and their widths) with a screenshot kept in
 * test-artifacts/.
 *
 * Chromium is Debian's `chromium` (.ci/run installs it). Without it the
 * browser test is skipped locally and fails in CI (CI=true).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as generated from '../../generated/index.js';
import { main } from '../../cli/main.js';
import { chartBars, formatInspectText, inspectSpec, renderInspectHtml, bytesEstimate, type InspectReport } from '../../cli/inspect/index.js';
import { createRouter, TARGETS, toolkitMode, toolMessage, type NeutralMessage, type Target } from '../../runtime/index.js';
import { REPO, removeDir, tempDir, write } from './stage.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.join(REPO, 'test-artifacts');
const BIN = path.join(REPO, 'bin/toolroute.js');
const HOSTILE_KIT = '<img src=x onerror="alert(1)">Kit & "co"';

let dir = '';
let report: InspectReport;

/** The CLI in this process (fast; the spawned tests prove bin/toolroute.js runs it the same way). */
async function inProcess(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { cwd: dir, stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

function cli(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const HOSTILE_SPEC = `version: 1
namespaces:
  - name: ops
    description: "Ops </script><b>bold</b>"
    tools:
      - { name: ping, description: "Ping <svg onload=alert(2)>" }
toolkits:
  - name: '${HOSTILE_KIT.replaceAll("'", "''")}'
    description: "A kit </toolkit> <script>alert(3)</script>"
    tools:
      - { name: big_tool, description: "${'x'.repeat(2000)}" }
`;

beforeAll(async () => {
  dir = tempDir('inspect-');
  write(path.join(dir, 'hostile.spec.yaml'), HOSTILE_SPEC);
  write(path.join(dir, 'bad.spec.yaml'), 'version: 1\ntools:\n  - name: x\n    descripton: typo\n');
  const r = await inspectSpec('examples/tools.spec.yaml', { cwd: REPO });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  report = r.report;
}, 300_000);
afterAll(() => removeDir(dir));

/** Entries of a target payload's tools array (Gemini nests them). */
function entries(target: Target, payload: unknown): unknown[] {
  const p = payload as { tools?: unknown[]; config?: { tools?: { functionDeclarations: unknown[] }[] } };
  return target === 'gemini' ? (p.config?.tools ?? []).flatMap((t) => t.functionDeclarations) : (p.tools ?? []);
}
const bytes = (s: string) => Buffer.byteLength(s, 'utf8');

describe('inspect numbers', () => {
  it('match what a router on the committed generated folder sends under its strategy, before and after each load', () => {
    const handlers = Object.fromEntries(generated.TOOL_NAMES.map((n) => [n, () => null])) as never;
    for (const target of TARGETS) {
      // The router an application makes (no toolkitLoading option: the spec's strategy, here native).
      const router = createRouter(generated, handlers);
      const t = report.targets.find((x) => x.target === target);
      expect(t, target).toBeDefined();
      expect(t?.strategy).toEqual({ name: 'native', mode: toolkitMode(target, undefined) });
      const kits = [null, ...generated.spec.toolkits.map((k) => k.name)];
      expect(t?.states.map((s) => s.label)).toEqual(['initial', ...generated.spec.toolkits.map((k) => `load_toolkit ${k.name}`)]);
      // The model's conversation: its load_toolkit calls and their results, as the router answers them.
      const messages: NeutralMessage[] = [{ role: 'user', content: 'Go on.' }];
      kits.forEach((kit, i) => {
        if (kit !== null) {
          const call = { id: `call_load_${i - 1}`, type: 'function' as const, function: { name: 'load_toolkit', arguments: JSON.stringify({ toolkit_name: kit }) } };
          const result = router.handleTool({ name: 'load_toolkit', arguments: { toolkit_name: kit } });
          expect(result).not.toMatch(/^Error/);
          messages.push({ role: 'assistant', content: null, tool_calls: [call] }, toolMessage(call, { ok: true, result }));
        }
        const payload = router.compile({ target, messages });
        const json = JSON.stringify(entries(target, payload));
        const state = t?.states[i];
        expect(state?.tools.bytes, `${target} ${kit}`).toBe(bytes(json));
        expect(state?.tools.count).toBe(entries(target, payload).length);
        expect(state?.request.bytes, `${target} ${kit}`).toBe(bytes(JSON.stringify(payload)));
        expect(state?.directory.bytes).toBe(bytes(generated.directoryXml));
        expect(state?.total.bytes).toBe(bytes(json) + bytes(generated.directoryXml));
        // o200k everywhere (estimate outside OpenAI), counted on the same text.
        expect(state?.tools.tokens).toBe(countTokens(json));
        expect(state?.total.tokens).toBe(countTokens(generated.directoryXml + json));
      });
      expect(t?.tokens).toBe(target === 'openai' || target === 'openai-responses' ? 'o200k' : 'o200k-estimate');
    }
    // Per target, what native means: Anthropic sends every toolkit tool deferred from the start, Chat adds the dispatcher.
    const anthropic = report.targets.find((t) => t.target === 'anthropic')!;
    expect(anthropic.states[0]!.toolNames).toEqual(['file_ops', 'terminal', 'get_time', 'load_toolkit', 'get_forecast', 'get_current_weather', 'run_query', 'describe_table']);
    expect(report.targets.find((t) => t.target === 'openai')!.states[0]!.toolNames).toContain('call_toolkit_tool');
  });

  it('measures the strategy it is given: append adds each toolkit\'s tools to the array on its load', async () => {
    const r = await inspectSpec('examples/tools.spec.yaml', { cwd: REPO, toolkitLoading: 'append', targets: ['openai'] });
    if (!r.ok) throw new Error('spec failed');
    const t = r.report.targets[0]!;
    expect(t.strategy).toEqual({ name: 'append', mode: 'append' });
    for (const k of t.groups.filter((g) => g.kind === 'toolkit')) {
      const i = t.states.findIndex((s) => s.label === `load_toolkit ${k.name}`);
      expect(t.states[i]!.tools.bytes - t.states[i - 1]!.tools.bytes, k.name).toBe(k.bytes + k.entries);
    }
    const text = await inProcess(['inspect', path.join(REPO, 'examples/tools.spec.yaml'), '--toolkit-loading', 'append']);
    expect(text.stdout).toContain('== openai (toolkit loading: append; o200k tokens) ==');
    expect((await inProcess(['inspect', path.join(REPO, 'examples/tools.spec.yaml'), '--toolkit-loading', 'apend'])).stderr).toContain('--toolkit-loading must be one of native, dispatcher, append');
  });

  it('groups add up, the largest are the largest, and unoffered flat tools are named', () => {
    for (const t of report.targets) {
      const initial = t.states[0]!;
      const initialGroups = t.groups.filter((g) => g.initial);
      // Entries plus brackets and commas.
      expect(initialGroups.reduce((n, g) => n + g.bytes, 0) + initial.tools.count + 1).toBe(initial.tools.bytes);
      const last = t.states.at(-1)!;
      expect(t.groups.reduce((n, g) => n + g.bytes, 0) + last.tools.count + 1).toBe(last.tools.bytes);
      for (const k of t.groups.filter((g) => g.kind === 'toolkit')) {
        expect(generated.directoryXml).toContain(`<toolkit name="${k.name}"`);
        expect(k.directory.bytes).toBeGreaterThan(bytes(k.name));
      }
      const sorted = [...t.items].sort((a, b) => b.bytes - a.bytes).slice(0, 5).map((i) => i.bytes);
      expect(t.largest.map((i) => i.bytes)).toEqual(sorted);
      expect(t.notOffered.map((i) => i.name)).toEqual(['read_file', 'run_bash', 'get_time'].filter((n) => !initial.toolNames.includes(n)));
    }
    // Deferred entries: every toolkit tool on Anthropic (native: deferred); the spec's deferLoading tool is a toolkit
    // tool, which Responses loads through tool search instead; none where the target has no tool search.
    const deferred = (target: Target) => report.targets.find((t) => t.target === target)!.states.at(-1)!.deferred.count;
    expect(deferred('anthropic')).toBe(4);
    expect(deferred('openai-responses')).toBe(0);
    expect(deferred('openai')).toBe(0);
    expect(deferred('gemini')).toBe(0);
  });

  it('measures a deferred flat tool the default set leaves out, on every target (a request of it alone breaks Anthropic\'s rule)', async () => {
    write(path.join(dir, 'deferred-out.spec.yaml'),
      'version: 1\noptions: { offerUngroupedTools: false }\ntools:\n  - { name: ping, description: Ping. }\n  - { name: later, description: Later., deferLoading: true }\n' +
        'namespaces:\n  - { name: ops, description: Ops., tools: [ping] }\n');
    const r = await inspectSpec('deferred-out.spec.yaml', { cwd: dir, tokenCounter: bytesEstimate() });
    if (!r.ok) throw new Error('spec failed');
    for (const t of r.report.targets) {
      const later = t.notOffered.find((i) => i.name === 'later');
      expect(later, t.target).toMatchObject({ offered: 'not by default', deferred: t.target === 'anthropic' || t.target === 'openai-responses' });
      expect(later!.bytes, t.target).toBeGreaterThan(bytes('later'));
    }
  });

  it('without a tokenizer every target is labelled an estimate', async () => {
    const r = await inspectSpec('examples/tools.spec.yaml', { cwd: REPO, tokenCounter: bytesEstimate() });
    if (!r.ok) throw new Error('spec failed');
    expect(r.report.targets.map((t) => t.tokens)).toEqual(TARGETS.map(() => 'bytes-estimate'));
    const text = formatInspectText(r.report);
    expect(text).toContain(`"≈" marks estimates for ${TARGETS.join(', ')} (gpt-tokenizer is not installed).`);
    expect(text).not.toContain('no tokenizer published');
    const s = r.report.targets[0]!.states[0]!;
    expect(s.tools.tokens).toBe(Math.ceil(s.tools.bytes / 4));
  });
});

describe('toolroute inspect (the first run spawned, the rest in this process)', () => {
  it('prints tables per target by default', () => {
    const r = cli(['inspect', path.join(REPO, 'examples/tools.spec.yaml')]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    for (const target of TARGETS) expect(r.stdout).toContain(`== ${target} (`);
    // The namespaces, the flat tool in no namespace (get_time, 222 bytes and a comma) and the loader.
    expect(r.stdout).toContain('== openai (toolkit loading: native, dispatcher here; o200k tokens) ==');
    expect(r.stdout).toContain('"≈" marks o200k counts used as estimates for anthropic, gemini (no tokenizer published as a package).');
    // The namespaces, the flat tool in no namespace, the loader and the dispatcher; loads add no entry.
    expect(r.stdout).toMatch(/^initial +5 +2,842 /m);
    expect(r.stdout).toContain('offered: file_ops, terminal, get_time, load_toolkit, call_toolkit_tool\n+ load_toolkit Weather adds: (none)\n');
    expect(r.stdout).toMatch(/^Weather +toolkit +2 +0 +0 +97 +in load results$/m);
    // read_file and run_bash are flat too, but also actions of file_ops and terminal: offered through them.
    expect(r.stdout).toContain("not offered by default (callable flat tools; pass them as compile's `tools`): read_file 442 B (flat), run_bash 396 B (flat)\n");
    expect(r.stdout).toContain('largest: file_ops ');
    expect(r.stdout).toMatch(/≈tokens/);
  });

  it('--json prints the report, the same one the library returns', async () => {
    const r = await inProcess(['inspect', path.join(REPO, 'examples/tools.spec.yaml'), '--json']);
    expect(r.code).toBe(0);
    const json = JSON.parse(r.stdout) as InspectReport;
    expect(json.targets).toEqual(report.targets);
    expect(json.hash).toBe(generated.manifest.hash);
  });

  it('a bad spec exits 1 with its problems; usage mistakes exit 2', async () => {
    const bad = await inProcess(['inspect', 'bad.spec.yaml']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('[unknown_key]');
    expect(bad.stderr).toContain('nothing to inspect');
    expect((await inProcess(['inspect'])).code).toBe(2);
    expect((await inProcess(['inspect', 'bad.spec.yaml', '--out', 'x'])).code).toBe(2);
    expect((await inProcess(['inspect', 'bad.spec.yaml', '--html', ''])).code).toBe(2);
    expect(await inProcess(['inspect', 'bad.spec.yaml', '--watch'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--watch') });
    expect(await inProcess(['inspect', 'bad.spec.yaml', '--json', '--html', 'page.html'])).toMatchObject({ code: 2, stderr: expect.stringContaining('one at a time') });
    expect((await inProcess(['codegen', 'bad.spec.yaml', '--out', 'x', '--json'])).code).toBe(2);
    expect((await inProcess(['codegen', 'bad.spec.yaml', '--out', 'x', '--runtime-import', ''])).code).toBe(2);
    expect(existsSync(path.join(dir, 'x'))).toBe(false);
    // A page it cannot write: exit 1, the path as given and the error's code, no absolute path.
    const unwritable = await inProcess(['inspect', 'hostile.spec.yaml', '--html', 'no-such-folder/page.html']);
    expect(unwritable).toMatchObject({ code: 1, stderr: 'toolroute: cannot write no-such-folder/page.html (ENOENT).\n' });
    // The same when the cleanup of the temporary file fails too: a folder on the path that is a file, a name too long.
    writeFileSync(path.join(dir, 'a-file'), '');
    expect(await inProcess(['inspect', 'hostile.spec.yaml', '--html', 'a-file/page.html'])).toMatchObject({ code: 1, stderr: 'toolroute: cannot write a-file/page.html (ENOTDIR).\n' });
    const long = `${'p'.repeat(245)}.html`;
    expect(await inProcess(['inspect', 'hostile.spec.yaml', '--html', long])).toMatchObject({ code: 1, stderr: `toolroute: cannot write ${long} (ENAMETOOLONG).\n` });
  });

  it('--html replaces a page it wrote, and no other file: not the spec, not a page of its own name', async () => {
    expect(await inProcess(['inspect', 'hostile.spec.yaml', '--html', 'again.html'])).toMatchObject({ code: 0 });
    writeFileSync(path.join(dir, 'again.html'), readFileSync(path.join(dir, 'again.html'), 'utf8').replace('<h1>', '<h1>OLD'));
    expect(await inProcess(['inspect', 'hostile.spec.yaml', '--html', 'again.html'])).toMatchObject({ code: 0 });
    expect(readFileSync(path.join(dir, 'again.html'), 'utf8')).not.toContain('OLD');
    const spec = readFileSync(path.join(dir, 'hostile.spec.yaml'), 'utf8');
    writeFileSync(path.join(dir, 'notes.html'), '<!doctype html><title>my notes</title>');
    for (const file of ['hostile.spec.yaml', 'notes.html']) {
      const r = await inProcess(['inspect', 'hostile.spec.yaml', '--html', file]);
      expect(r).toMatchObject({ code: 1, stdout: '' });
      expect(r.stderr).toBe(`toolroute: --html ${file} names a file that is not a page toolroute inspect wrote; it was left as it is. Pick another name, or remove the file.\n`);
    }
    expect(readFileSync(path.join(dir, 'hostile.spec.yaml'), 'utf8')).toBe(spec);
    expect(readFileSync(path.join(dir, 'notes.html'), 'utf8')).toBe('<!doctype html><title>my notes</title>');
    mkdirSync(path.join(dir, 'a-folder.html'));
    expect(await inProcess(['inspect', 'hostile.spec.yaml', '--html', 'a-folder.html'])).toMatchObject({ code: 1, stderr: expect.stringContaining('not a page toolroute inspect wrote') });
  });

  it('terminal and JSON output keep spec text as text', async () => {
    const r = await inProcess(['inspect', 'hostile.spec.yaml']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(HOSTILE_KIT);
    const json = JSON.parse((await inProcess(['inspect', 'hostile.spec.yaml', '--json'])).stdout) as InspectReport;
    expect(json.targets[0]!.groups.map((g) => g.name)).toContain(HOSTILE_KIT);
  });
});

describe('inspect --html', () => {
  it('is one self-contained page: no scripts, no external references, spec text escaped', async () => {
    const r = await inspectSpec('hostile.spec.yaml', { cwd: dir });
    if (!r.ok) throw new Error('spec failed');
    const html = renderInspectHtml(r.report);
    expect(html).not.toMatch(/<script|<img|<link|@import|url\(|https?:\/\/(?!www\.w3\.org\/2000\/svg)/i);
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;Kit &amp; &quot;co&quot;');
    expect(renderInspectHtml(r.report)).toBe(html); // deterministic
  });

  const hasChromium = existsSync(CHROMIUM);
  it.skipIf(!hasChromium && process.env['CI'] !== 'true')('renders its tables and chart in headless Chromium (screenshot in test-artifacts/)', async () => {
    expect(existsSync(CHROMIUM), `${CHROMIUM} is missing: apt-get install -y chromium (.ci/run does)`).toBe(true);
    const out = cli(['inspect', path.join(REPO, 'examples/tools.spec.yaml'), '--html', 'inspect.html']);
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toBe('toolroute: wrote inspect.html (4 targets).\n');
    const hostile = await inProcess(['inspect', 'hostile.spec.yaml', '--html', 'hostile.html']);
    expect(hostile.code).toBe(0);

    const { chromium } = await import('playwright-core');
    const profile = tempDir('chromium-profile-');
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      viewport: { width: 1100, height: 900 },
    });
    try {
      const page = await context.newPage();
      const requests: string[] = [];
      page.on('request', (req) => requests.push(req.url()));
      await page.goto(pathToFileURL(path.join(dir, 'inspect.html')).href);

      // Tables: one section per target; the states table's rows read as the report says.
      const sections = await page.locator('section[data-target]').evaluateAll((els) => els.map((e) => e.getAttribute('data-target')));
      expect(sections).toEqual([...TARGETS]);
      for (const t of report.targets) {
        const rows = await page
          .locator(`section[data-target="${t.target}"] table[data-table="states"] tbody tr`)
          .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? "").trim())));
        expect(rows.map((r) => [r[0], r[1], r[2], r[3]])).toEqual(
          t.states.map((s, i) => [i === 0 ? s.label : `+ ${s.label}`, String(s.tools.count), s.tools.bytes.toLocaleString('en-US'), s.tools.tokens.toLocaleString('en-US')]),
        );
        const offered = await page.locator(`section[data-target="${t.target}"] ul.offered li`).allInnerTexts();
        expect(offered[0]).toBe(`offered: ${t.states[0]!.toolNames.join(', ')}`);
        expect(offered).toHaveLength(t.states.length);
        const groups = await page.locator(`section[data-target="${t.target}"] table[data-table="groups"] tbody tr td:first-child`).allInnerTexts();
        expect(groups).toEqual(t.groups.map((g) => g.name));
        const header = await page.locator(`section[data-target="${t.target}"] table[data-table="states"] thead`).innerText();
        expect(header).toContain(t.tokens === 'o200k' ? 'tokens' : '≈tokens');
      }

      // Chart: one bar per target and state; its segments are the report's bytes; widths proportional.
      const bars = await page.locator('svg.chart g.bar').evaluateAll((gs) =>
        gs.map((g) => ({
          target: g.getAttribute('data-target'),
          state: g.getAttribute('data-state'),
          segments: [...g.querySelectorAll('rect.seg')].map((r) => ({
            group: r.getAttribute('data-group'),
            bytes: Number(r.getAttribute('data-bytes')),
            width: r.getBoundingClientRect().width,
          })),
        })),
      );
      const expected = chartBars(report);
      expect(bars.map((b) => ({ target: b.target, state: b.state, segments: b.segments.map(({ group, bytes }) => ({ group, bytes })) }))).toEqual(
        expected.map((b) => ({ target: b.target, state: b.state, segments: b.segments })),
      );
      for (const [i, b] of expected.entries()) {
        const state = report.targets.find((t) => t.target === b.target)!.states.find((s) => s.label === b.state)!;
        expect(b.bytes).toBe(state.total.bytes);
        expect(bars[i]!.segments.length).toBeGreaterThan(1);
      }
      const widest = Math.max(...bars.map((b) => b.segments.reduce((n, s) => n + s.width, 0)));
      const maxBytes = Math.max(...expected.map((b) => b.bytes));
      for (const [i, b] of bars.entries()) {
        const w = b.segments.reduce((n, s) => n + s.width, 0);
        expect(Math.abs(w / widest - expected[i]!.bytes / maxBytes)).toBeLessThan(0.01);
      }
      const legend = await page.locator('ul.legend li').allInnerTexts();
      expect(legend).toEqual(expect.arrayContaining(['directory', 'file_ops', 'terminal', 'load_toolkit', 'Weather', 'Database']));
      expect(requests.filter((u) => !u.startsWith('file:'))).toEqual([]);

      mkdirSync(ARTIFACTS, { recursive: true });
      await page.screenshot({ path: path.join(ARTIFACTS, 'inspect.png'), fullPage: true });
      expect(readFileSync(path.join(ARTIFACTS, 'inspect.png')).subarray(1, 4).toString()).toBe('PNG');

      // Hostile spec text renders as text: no element it names exists, and no dialog opens.
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await page.goto(pathToFileURL(path.join(dir, 'hostile.html')).href);
      expect(await page.locator('img, script, b').count()).toBe(0);
      expect(await page.locator('section[data-target="anthropic"] table[data-table="groups"]').innerText()).toContain(HOSTILE_KIT);
      expect(await page.locator('svg.chart rect.seg[data-group]').evaluateAll((rs) => rs.map((r) => r.getAttribute('data-group')))).toContain(HOSTILE_KIT);
      expect(await page.locator('section[data-target="anthropic"] table[data-table="largest"] tbody tr td:first-child').first().innerText()).toBe('big_tool');
      expect(dialogs).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, 'inspect-hostile.png'), fullPage: true });
    } finally {
      await context.close();
      removeDir(profile);
    }
  }, 300_000);
});
