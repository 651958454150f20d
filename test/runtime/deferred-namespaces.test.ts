/**
 * `deferLoading` on a namespace's actions: the spec check and the payloads say the same thing. A namespace's tool is
 * always sent as it is (an action is deferred only inside a native namespace on Responses), so a spec whose only
 * tools are deferred actions of a namespace generates, and every target compiles it; a spec of deferred flat tools
 * alone is refused, as Anthropic would refuse its request.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { generate } from '../../generator/index.js';
import { createRouter, TARGETS, type GeneratedModule } from '../../runtime/index.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(path.join(REPO, '.tmp', 'runtime-tests', 'deferred-ns-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NAMESPACE = `namespaces:
  - name: notes
    description: Read and write notes.
    tools:
      - { name: notes_get, description: Get a note by its title., deferLoading: true }
      - { name: notes_put, description: Save a note., deferLoading: true }
`;

async function build(name: string, spec: string) {
  writeFileSync(path.join(dir, `${name}.yaml`), `version: 1\n${spec}`);
  return generate(path.join(dir, `${name}.yaml`), { out: path.join(dir, name), cwd: REPO });
}

describe('deferLoading on namespace actions', () => {
  test('a namespace of deferred actions is a tool the model sees: it generates, and every target sends it', async () => {
    for (const [name, spec] of [['only-namespace', NAMESPACE], ['with-deferred-flat', `tools:\n  - { name: get_time, description: Time., deferLoading: true }\n${NAMESPACE}`]] as const) {
      const result = await build(name, spec);
      expect(result.problems, name).toEqual([]);
      const gen = (await import(pathToFileURL(path.join(dir, name, 'index.ts')).href)) as GeneratedModule & { TOOL_NAMES: readonly string[] };
      const router = createRouter(gen, Object.fromEntries(gen.TOOL_NAMES.map((tool) => [tool, () => tool])) as never);
      const messages = [{ role: 'user' as const, content: 'go' }];
      for (const target of TARGETS) expect(() => router.compile({ target, messages }), `${name} ${target}`).not.toThrow();
      const anthropic = router.compile({ target: 'anthropic', messages, tools: ['notes'] }).tools as { name: string; defer_loading?: boolean }[];
      expect(anthropic).toEqual([expect.objectContaining({ name: 'notes' })]);
      expect(anthropic[0]!.defer_loading).toBeUndefined();
      // On Responses' native namespaces the actions are deferred inside the namespace, which is sent.
      const native = router.compile({ target: 'openai-responses', messages, tools: ['notes'], options: { namespaces: 'native' } }).tools as { type: string; tools?: { defer_loading?: boolean }[] }[];
      expect(native.map((t) => t.type)).toEqual(['namespace']);
      expect(native[0]!.tools!.map((t) => t.defer_loading)).toEqual([true, true]);
    }
  });

  test('a spec of deferred flat tools alone is refused, and the hint says what to change', async () => {
    const result = await build('flat', 'tools:\n  - { name: a, description: A, deferLoading: true }\n  - { name: b, description: B, deferLoading: true }\n');
    expect(result.problems.map((p) => [p.code, p.message])).toEqual([['all_tools_deferred', 'every tool the model sees is deferred (a, b).']]);
    expect(result.problems[0]!.hint).toContain('on at least one tool, or add a namespace or toolkit');
  });
});
