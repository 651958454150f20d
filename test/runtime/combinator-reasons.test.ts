/**
 * A rejected `oneOf` / `anyOf` argument tells the model what to fix. The spec is generated into a temp folder (the
 * real validators, ajv's errors as dispatch sees them). When a branch is clearly meant (its `const` discriminator
 * matches, or it fails on the fewest keywords) the reason holds that branch's errors with their pointers; otherwise one
 * line says what each branch needs.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { generate } from '../../generator/index.js';
import { createRouter, type GeneratedModule, type RegistryShape } from '../../runtime/index.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SPEC = `version: 1
tools:
  - name: edit_file
    description: Edit a file
    parameters:
      type: object
      properties:
        path: { type: string }
        edit:
          oneOf:
            - type: object
              properties: { kind: { const: replace }, start_line: { type: integer, minimum: 1 }, new_text: { type: string } }
              required: [kind, start_line, new_text]
              additionalProperties: false
            - type: object
              properties: { kind: { const: delete }, start_line: { type: integer, minimum: 1 } }
              required: [kind, start_line]
              additionalProperties: false
      required: [path, edit]
  - name: set_limit
    description: Set a limit
    parameters:
      type: object
      properties:
        limit:
          anyOf:
            - { type: integer, minimum: 1 }
            - { type: string, enum: [unlimited] }
      required: [limit]
namespaces:
  - name: files
    description: File operations
    tools: [edit_file]
`;
let dir = '';
let generated: GeneratedModule<RegistryShape>;

beforeAll(async () => {
  const base = path.join(REPO, '.tmp', 'runtime-tests');
  mkdirSync(base, { recursive: true });
  dir = mkdtempSync(path.join(base, 'combinator-'));
  writeFileSync(path.join(dir, 'spec.yaml'), SPEC);
  const result = await generate(path.join(dir, 'spec.yaml'), { out: path.join(dir, 'out'), cwd: REPO });
  expect(result.problems).toEqual([]);
  generated = (await import(pathToFileURL(path.join(dir, 'out', 'index.ts')).href)) as GeneratedModule<RegistryShape>;
});
afterAll(() => {
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
});

async function reason(name: string, args: object): Promise<string> {
  const router = createRouter(generated, { edit_file: () => 'edited', set_limit: () => 'set' } as never);
  const r = await router.dispatch({ name, arguments: args });
  expect(r.ok).toBe(false);
  return (r as { reason: string }).reason;
}
const lines = (text: string) => text.split('\n').filter((l) => l.startsWith('- '));

describe('oneOf / anyOf rejections', () => {
  test('the discriminator picks the branch: its errors, with pointers (through a namespace too)', async () => {
    expect(lines(await reason('files', { action: 'edit_file', args: { path: 'a', edit: { kind: 'replace', start_line: 0, new_text: 'x' } } }))).toEqual([
      '- /args/edit/start_line: must be >= 1',
    ]);
    expect(lines(await reason('files', { action: 'edit_file', args: { path: 'a', edit: { kind: 'replace', start_line: 2 } } }))).toEqual([
      '- /args/edit/new_text: missing (required, expected string)',
    ]);
    expect(lines(await reason('files', { action: 'edit_file', args: { path: 'a', edit: { kind: 'delete', start_line: 2, new_text: 'x' } } }))).toEqual([
      '- /args/edit/new_text: unexpected property "new_text" (allowed: kind, start_line)',
    ]);
  });

  test('no branch fits its discriminator: what each branch needs, briefly', async () => {
    expect(lines(await reason('files', { action: 'edit_file', args: { path: 'a', edit: { kind: 'move', start_line: 2 } } }))).toEqual([
      '- /args/edit: matches none of the allowed forms; form 1 needs /args/edit/kind: must be "replace", /args/edit/new_text: missing (required, expected string); form 2 needs /args/edit/kind: must be "delete"',
    ]);
    // Not even an object: every branch says the same, once.
    expect(lines(await reason('files', { action: 'edit_file', args: { path: 'a', edit: 'replace' } }))).toEqual(['- /args/edit: expected object, got string']);
  });

  test('anyOf of scalars: the branch of the value\'s type is meant, unless its enum fails too', async () => {
    expect(lines(await reason('set_limit', { limit: 0 }))).toEqual(['- /limit: must be >= 1']);
    expect(lines(await reason('set_limit', { limit: 'forever' }))).toEqual([
      '- /limit: matches none of the allowed forms; form 1 needs /limit: expected integer, got string; form 2 needs /limit: must be one of "unlimited"',
    ]);
    expect(lines(await reason('set_limit', { limit: true }))).toEqual([
      '- /limit: matches none of the allowed forms; form 1 needs /limit: expected integer, got boolean; form 2 needs /limit: expected string, got boolean, /limit: must be one of "unlimited"',
    ]);
  });
});
