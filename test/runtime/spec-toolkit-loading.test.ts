/**
 * `options.toolkitLoading` in the spec: the router's default strategy, set
 * where the tools are declared (a team that standardises on `dispatcher` for
 * every agent need not repeat it in each `createRouter`). The router's own
 * option replaces it. A misspelt strategy or target is a codegen problem
 * with the closest name, and nothing is written.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generate } from '../../generator/index.js';
import { createRouter, type GeneratedModule } from '../../runtime/index.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let dir = '';
let gen: GeneratedModule;

const spec = (options: string) => `version: 1
${options}
tools:
  - { name: read_file, description: Read a file, parameters: { path: { type: string } } }
toolkits:
  - name: Weather
    description: Forecasts
    tools:
      - { name: get_forecast, description: The forecast, parameters: { city: { type: string } } }
`;

beforeAll(async () => {
  // Inside the repo (gitignored .tmp), so the generated code resolves `ajv` and the runtime.
  const base = path.join(REPO, '.tmp', 'runtime-tests');
  mkdirSync(base, { recursive: true });
  dir = mkdtempSync(path.join(base, 'spec-toolkit-loading-'));
  // Keys out of TARGETS order: the generated value is canonical whatever the order written.
  writeFileSync(path.join(dir, 'spec.yaml'), spec('options:\n  toolkitLoading: { gemini: append, anthropic: dispatcher }'));
  const r = await generate(path.join(dir, 'spec.yaml'), { out: path.join(dir, 'out'), cwd: REPO });
  expect(r.problems).toEqual([]);
  gen = (await import(pathToFileURL(path.join(dir, 'out', 'index.ts')).href)) as GeneratedModule;
});
afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

const handlers = { read_file: () => 'text', get_forecast: () => 'sunny' };
const messages = [{ role: 'user' as const, content: 'go' }];
type Named = { name?: string; function?: { name: string }; defer_loading?: boolean; functionDeclarations?: { name: string }[] };
const anthropicTools = (p: unknown) => (p as { tools: Named[] }).tools;
const geminiNames = (p: unknown) => (p as { config: { tools: Named[] } }).config.tools.flatMap((t) => t.functionDeclarations?.map((d) => d.name) ?? []);

describe('options.toolkitLoading', () => {
  test('is carried into the generated spec in target order', () => {
    expect(gen.spec.toolkitLoading).toEqual({ anthropic: 'dispatcher', gemini: 'append' });
    expect(Object.keys(gen.spec.toolkitLoading as object)).toEqual(['anthropic', 'gemini']);
  });

  test("is the router's default per target", async () => {
    const router = createRouter(gen, handlers);
    // anthropic: dispatcher — no deferred toolkit tools, the stable call_toolkit_tool instead.
    const a = anthropicTools(router.compile({ target: 'anthropic', messages }));
    expect(a.map((t) => t.name)).toEqual(['read_file', 'load_toolkit', 'call_toolkit_tool']);
    expect(a.some((t) => t.defer_loading === true)).toBe(false);
    // gemini: append — the loaded toolkit's tools join `tools` after a load.
    expect(geminiNames(router.compile({ target: 'gemini', messages }))).toEqual(['read_file', 'load_toolkit']);
    const load = await router.dispatch({ name: 'load_toolkit', arguments: { toolkit_name: 'Weather' } });
    expect(load.ok).toBe(true);
    expect(geminiNames(router.compile({ target: 'gemini', messages }))).toEqual(['read_file', 'load_toolkit', 'get_forecast']);
  });

  test("the router's option replaces the spec's", () => {
    const router = createRouter(gen, handlers, { toolkitLoading: 'native' });
    const a = anthropicTools(router.compile({ target: 'anthropic', messages }));
    expect(a.find((t) => t.name === 'get_forecast')?.defer_loading).toBe(true);
    expect(a.map((t) => t.name)).not.toContain('call_toolkit_tool');
  });

  test('a spec without it generates no key (its bytes are what they were)', async () => {
    const plain = mkdtempSync(path.join(REPO, '.tmp', 'runtime-tests', 'spec-toolkit-loading-plain-'));
    try {
      writeFileSync(path.join(plain, 'spec.yaml'), spec(''));
      const r = await generate(path.join(plain, 'spec.yaml'), { out: path.join(plain, 'out'), cwd: REPO });
      expect(r.problems).toEqual([]);
      expect(readFileSync(path.join(plain, 'out', 'spec.gen.ts'), 'utf8')).not.toContain('toolkitLoading');
      expect(readFileSync(path.join(dir, 'out', 'spec.gen.ts'), 'utf8')).toContain('toolkitLoading');
    } finally {
      rmSync(plain, { recursive: true, force: true });
    }
  });

  test.each([
    ['toolkitLoading: dispather', 'invalid_value', /"dispather" is not a valid toolkitLoading strategy\..*"dispatcher"/s],
    ['toolkitLoading: { antropic: append }', 'unknown_key', /"antropic" in `options.toolkitLoading` is not a target\..*"anthropic".*Targets: anthropic, openai, openai-responses, gemini/s],
    ['toolkitLoading: { anthropic: apend }', 'invalid_value', /"apend" is not a valid strategy for anthropic\..*"append"/s],
    ['toolkitLoading: 3', 'wrong_type', /expected a strategy name or a mapping from target to strategy, but found.*one of native, dispatcher, append, tool-changes/s],
    ['toolkitLoading: [native]', 'wrong_type', /expected a strategy name or a mapping from target to strategy/],
  ])('%s: %s, nothing written', async (line, code, message) => {
    const bad = mkdtempSync(path.join(REPO, '.tmp', 'runtime-tests', 'spec-toolkit-loading-bad-'));
    try {
      writeFileSync(path.join(bad, 'spec.yaml'), spec(`options:\n  ${line}`));
      const r = await generate(path.join(bad, 'spec.yaml'), { out: path.join(bad, 'out'), cwd: REPO });
      expect(r.problems.map((p) => p.code)).toEqual([code]);
      expect(`${r.problems[0]?.message} ${r.problems[0]?.hint}`).toMatch(message);
      expect(existsSync(path.join(bad, 'out'))).toBe(false);
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });
});
