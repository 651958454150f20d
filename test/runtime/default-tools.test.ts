/**
 * Flat tools do not vanish from the default tool set once
 * the spec has a namespace. The reproduction — a coding agent with 8
 * flat tools, a `git` namespace and a GitHub toolkit
 * (test/fixtures/ungrouped-off/spec.yaml) — is generated twice: as written
 * (`offerUngroupedTools: false`, the reference library's `compile()`, whose
 * committed snapshot the router is built from) and without that line (the
 * default), into a temp folder. Codegen's warnings name exactly the tools the
 * option leaves unreachable.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Pruner } from '@context-chef/core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generate } from '../../generator/index.js';
import { formatProblem } from '../../generator/problems.js';
import { createRouter, TARGETS, type GeneratedModule, type Target } from '../../runtime/index.js';
import * as off from '../fixtures/ungrouped-off/expected/index.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SPEC = path.join(REPO, 'test/fixtures/ungrouped-off/spec.yaml');
const messages = [{ role: 'user' as const, content: 'go' }];
let dir = '';
let on: GeneratedModule<off.Registry>;

/** The spec without `options.offerUngroupedTools: false`: the default. */
function defaultSpecText(): string {
  const text = readFileSync(SPEC, 'utf8');
  const without = text.replace('options:\n  offerUngroupedTools: false\n', '');
  expect(without).not.toBe(text);
  return without;
}

beforeAll(async () => {
  // Inside the repo (gitignored .tmp), so the generated code resolves `ajv` and `toolroute/runtime`.
  const base = path.join(REPO, '.tmp', 'runtime-tests');
  mkdirSync(base, { recursive: true });
  dir = mkdtempSync(path.join(base, 'default-tools-'));
  writeFileSync(path.join(dir, 'spec.yaml'), defaultSpecText());
  const result = await generate(path.join(dir, 'spec.yaml'), { out: path.join(dir, 'out'), cwd: REPO });
  expect(result.problems).toEqual([]);
  // Offering every ungrouped tool leaves nothing unreachable: no warning.
  expect(result.warnings).toEqual([]);
  on = (await import(pathToFileURL(path.join(dir, 'out', 'index.ts')).href)) as GeneratedModule<off.Registry>;
});
afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

const handlers = Object.fromEntries(off.TOOL_NAMES.map((name) => [name, () => name])) as unknown as off.Handlers;

/** Tool names of a target payload, in payload order (a tool without a name by its type, e.g. Responses' `tool_search`). */
function payloadNames(target: Target, payload: unknown): string[] {
  type Entry = { name?: string; type?: string; function?: { name: string }; functionDeclarations?: { name: string }[] };
  const tools = target === 'gemini' ? (payload as { config: { tools?: Entry[] } }).config.tools : (payload as { tools?: Entry[] }).tools;
  return (tools ?? []).flatMap((t) => t.functionDeclarations?.map((d) => d.name) ?? [t.function?.name ?? t.name ?? String(t.type)]);
}

/** The flat tools in no namespace, in spec order: what the default set adds after the namespaces. */
const UNGROUPED = ['read_file', 'write_file', 'list_dir', 'grep', 'get_time', 'gh_search', 'run_tests'];
/** Flat tools in no namespace and no toolkit: what `offerUngroupedTools: false` leaves unreachable. */
const UNREACHABLE = ['read_file', 'write_file', 'list_dir', 'grep', 'get_time', 'run_tests'];

describe('the default tool set (offerUngroupedTools, default true)', () => {
  test('compile(): the namespace, then the flat tools in no namespace, then load_toolkit', () => {
    const router = createRouter(on, handlers);
    // git_diff is flat too, but also a git action: the model reaches it through `git`, under one name.
    expect(router.compile().tools.map((t) => t.name)).toEqual(['git', ...UNGROUPED, 'load_toolkit']);
  });

  test.each(TARGETS)('%s: the payload of the groups-only set with the ungrouped tools after the namespace', (target) => {
    const router = createRouter(on, handlers);
    const names = payloadNames(target, router.compile({ target, messages }));
    // With the option off the payload is the namespace and the library's tools in the target's form
    // (the loader, Responses' client tool_search, the dispatcher, Anthropic's deferred toolkit tools).
    const groupsOnly = payloadNames(target, createRouter(off, handlers).compile({ target, messages }));
    expect(groupsOnly[0]).toBe('git');
    expect(groupsOnly.length).toBeGreaterThan(1);
    // A flat toolkit tool (gh_search) is sent once: as a stable flat tool, no longer among the toolkit's deferred ones.
    expect(names).toEqual(['git', ...UNGROUPED, ...groupsOnly.slice(1).filter((n) => !UNGROUPED.includes(n))]);
    // Every offered flat tool is callable under the name the payload gives it.
    for (const name of UNGROUPED) expect(router.checkToolCall({ name })).toMatchObject({ allowed: true });
  });

  test('loading a toolkit never repeats a flat tool that is already offered', async () => {
    const router = createRouter(on, handlers, { toolkitLoading: 'append' });
    expect((await router.dispatch({ name: 'load_toolkit', arguments: { toolkit_name: 'GitHub' } })).ok).toBe(true);
    const names = payloadNames('anthropic', router.compile({ target: 'anthropic', messages }));
    expect(names).toEqual(['git', ...UNGROUPED, 'load_toolkit', 'gh_pr_list']);
  });

  test('a flat tool registered at run time joins the default set; one placed in a namespace leaves it', () => {
    const router = createRouter(on, handlers)
      .registerTools([{ name: 'ping', description: 'Ping', handler: () => 'pong' }])
      .registerNamespaces([{ name: 'clock', description: 'Time', tools: ['get_time'] }]);
    expect(router.compile().tools.map((t) => t.name)).toEqual(['git', 'clock', ...UNGROUPED.filter((n) => n !== 'get_time'), 'ping', 'load_toolkit']);
  });
});

describe('offerUngroupedTools: false', () => {
  test('compile() offers only the groups, exactly as the reference library compiles the same registration', () => {
    const router = createRouter(off, handlers);
    const names = router.compile().tools.map((t) => t.name);
    expect(names).toEqual(['git', 'load_toolkit']);
    const reference = new Pruner()
      .registerTools(UNGROUPED.map((name) => ({ name, description: name })))
      .registerNamespaces([{ name: 'git', description: 'Git operations', tools: ['git_diff', 'git_status', 'git_commit', 'git_push'].map((name) => ({ name, description: name })) }])
      .registerToolkits([{ name: 'GitHub', description: 'Pull requests and code search', tools: [] }])
      .compile();
    expect(names).toEqual(reference.tools.map((t) => t.name));
    for (const target of TARGETS) expect(payloadNames(target, router.compile({ target, messages }))[0]).toBe('git');
    expect(payloadNames('anthropic', router.compile({ target: 'anthropic', messages }))).not.toContain('read_file');
  });

  test('the left-out tools stay callable and can be offered by name or by a prune result', () => {
    const router = createRouter(off, handlers);
    expect(router.checkToolCall({ name: 'get_time' })).toMatchObject({ allowed: true });
    const pruned = router.pruneByTask('read the file');
    // The reference library's matching: a name or tag in the task, untagged tools always.
    expect(pruned.tools.map((t) => t.name)).toEqual(['read_file', 'write_file', 'list_dir', 'get_time']);
    const names = payloadNames('anthropic', router.compile({ target: 'anthropic', messages, tools: [...pruned.tools.map((t) => t.name), 'git'] }));
    expect(names).toEqual(['read_file', 'write_file', 'list_dir', 'get_time', 'git', 'load_toolkit', 'gh_search', 'gh_pr_list']);
  });

  test('codegen warns about each tool that then reaches no model, and only those', async () => {
    const result = await generate(SPEC, { out: 'test/fixtures/ungrouped-off/expected', cwd: REPO, check: true });
    expect(result.ok).toBe(true);
    expect(result.warnings.map((w) => [w.code, w.severity, w.path])).toEqual(
      UNREACHABLE.map((name) => ['unreachable_tool', 'warning', `tools[${off.spec.flat.findIndex((t) => off.spec.tools[t]!.name === name)}]`]),
    );
    expect(result.warnings.map((w) => /the tool "(\w+)"/.exec(w.message)?.[1])).toEqual(UNREACHABLE);
    expect(formatProblem(result.warnings[0]!)).toBe(
      'test/fixtures/ungrouped-off/spec.yaml:14:5 - warning [unreachable_tool] tools[0]: the tool "read_file" reaches no model: it is in no namespace and no toolkit, and `options.offerUngroupedTools: false` keeps it out of the default tool set.\n' +
        "  hint: Put it in a namespace or toolkit, offer it yourself (compile's `tools`: a prune result or names), or remove `offerUngroupedTools: false`. It is still generated and callable.",
    );
  });

  test('a spec without namespaces or toolkits offers every flat tool either way, with no warning', async () => {
    const base = path.join(REPO, '.tmp', 'runtime-tests');
    const flatDir = mkdtempSync(path.join(base, 'flat-off-'));
    try {
      writeFileSync(
        path.join(flatDir, 'spec.yaml'),
        'version: 1\noptions: { offerUngroupedTools: false }\ntools:\n  - { name: a, description: A }\n  - { name: b, description: B, deferLoading: false }\n',
      );
      const result = await generate(path.join(flatDir, 'spec.yaml'), { out: path.join(flatDir, 'out'), cwd: REPO });
      expect(result.problems).toEqual([]);
      expect(result.warnings).toEqual([]);
      const gen = (await import(pathToFileURL(path.join(flatDir, 'out', 'index.ts')).href)) as GeneratedModule;
      const router = createRouter(gen, { a: () => 'a', b: () => 'b' } as never);
      expect(router.compile().tools.map((t) => t.name)).toEqual(['a', 'b']);
      expect(payloadNames('anthropic', router.compile({ target: 'anthropic', messages }))).toEqual(['a', 'b']);
    } finally {
      rmSync(flatDir, { recursive: true, force: true });
    }
  });
});
