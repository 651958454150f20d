/**
 * The router's layout: runtime/router.ts is the façade and each
 * concern has its own module under runtime/router/. These checks keep that
 * readable as the concerns grow: every module says what it owns, stays small,
 * stays internal (the public surface is the façade), and imports nothing
 * from the generator.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

const runtimeDir = new URL('../../runtime/', import.meta.url);
const routerDir = new URL('router/', runtimeDir);
const modules = readdirSync(routerDir).filter((f) => f.endsWith('.ts')).sort();
const read = (file: string) => readFileSync(new URL(file, routerDir), 'utf8');
const specifiers = (src: string) => [...src.matchAll(/^(?:import|export)[^;]*?from '([^']+)'/gms)].map((m) => m[1]!);

test('one module per concern, each opening with a comment that says what it owns', () => {
  expect(modules).toEqual(['catalog.ts', 'compile.ts', 'entries.ts', 'events.ts', 'gate.ts', 'invoke.ts', 'library.ts', 'lookup.ts', 'prune.ts', 'resolve.ts', 'session.ts', 'types.ts']);
  for (const file of [...modules.map((f) => `router/${f}`), 'router.ts']) {
    const src = readFileSync(new URL(file, runtimeDir), 'utf8');
    expect(src.startsWith('/**\n'), `${file} opens with a doc comment`).toBe(true);
    // The comment is a paragraph, not a one-liner.
    expect(src.slice(0, src.indexOf('*/')).split('\n').length, `${file}'s opening comment`).toBeGreaterThan(4);
    expect(src.split('\n').length, `${file} stays at 450 lines or less`).toBeLessThanOrEqual(450);
  }
});

test('the concern modules are internal: runtime/index.ts exports the façade, never runtime/router/*', () => {
  const index = specifiers(readFileSync(new URL('index.ts', runtimeDir), 'utf8'));
  expect(index).toContain('./router.js');
  expect(index.filter((s) => s.startsWith('./router/'))).toEqual([]);
});

test('the router modules import only the runtime (never the generator, the schema or a package)', () => {
  for (const file of modules) {
    const found = specifiers(read(file));
    expect(found.length, `${file}'s imports were read`).toBeGreaterThan(0);
    for (const s of found) {
      expect(s, `${file} imports ${s}`).toMatch(/^\.\.?\/[a-z-]+(?:\/[a-z-]+)?\.js$/);
      // Never out of runtime/ (the generator, the schema).
      expect(s, `${file} imports ${s}`).not.toMatch(/^\.\.\/\.\.\//);
    }
  }
});

test('the router reaches a target only through the adapter table: no router module imports a target module', () => {
  // A target module is one that declares a TargetAdapter (runtime/targets/anthropic.ts, …); found, not listed, so a new target is covered.
  const targetsDir = new URL('targets/', runtimeDir);
  const targetModules = readdirSync(targetsDir)
    .filter((f) => f.endsWith('.ts') && /: TargetAdapter<'[a-z-]+'> = \{/.test(readFileSync(new URL(f, targetsDir), 'utf8')))
    .map((f) => `../targets/${f.replace(/\.ts$/, '.js')}`);
  expect(targetModules.sort()).toEqual(['../targets/anthropic.js', '../targets/gemini.js', '../targets/openai-responses.js', '../targets/openai.js']);
  for (const file of modules) {
    for (const s of specifiers(read(file))) expect(targetModules, `${file} imports ${s}`).not.toContain(s);
  }
  // compile.ts does use targets: through the adapter index.
  expect(specifiers(read('compile.ts'))).toContain('../targets/index.js');
});
