/**
 * The runtime imports nothing from the generator: an application ships
 * `toolroute/runtime` and its generated folder without the code generator,
 * the spec schema, or the generator's dependencies.
 *
 * Statically, from the sources: every import, re-export, side-effect import,
 * dynamic `import()` and `require()` of every `runtime/**\/*.ts` file (read with
 * the TypeScript scanner, so examples in comments do not count), and the
 * import graph reachable from `runtime/index.ts`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ts } from 'ts-morph';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const RUNTIME = path.join(REPO, 'runtime');

/** The module specifiers a source file imports (comments and strings that are not imports ignored). */
function importsOf(source: string): string[] {
  const info = ts.preProcessFile(source, true, true);
  return info.importedFiles.map((f) => f.fileName);
}

function tsFilesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...tsFilesUnder(full));
    else if (entry.name.endsWith('.ts')) out.push(full);
  }
  return out.sort();
}

/** `foo`, `@scope/foo` of a bare specifier; undefined for relative and `node:` ones. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** A relative specifier of `from` as a repo file (`.js` written for `.ts`, as NodeNext requires). */
function resolveRelative(from: string, specifier: string): string {
  const target = path.resolve(path.dirname(from), specifier);
  return target.endsWith('.js') ? `${target.slice(0, -3)}.ts` : target;
}

// What only the generator uses: every package the generator and the spec schema
// import, every runtime dependency in package.json (all of them are the
// generator's), and the compilers. Computed from the sources, so a new
// generator dependency is covered without editing this list.
function generatorOnlyPackages(): Set<string> {
  const packages = new Set(['json-schema-to-typescript', 'zod', 'yaml', 'tsx', 'ajv', 'ajv-formats', 'typescript', 'ts-morph']);
  const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
  for (const name of Object.keys(manifest.dependencies ?? {})) packages.add(name);
  for (const dir of ['generator', 'schema']) {
    for (const file of tsFilesUnder(path.join(REPO, dir))) {
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        const pkg = packageOf(spec);
        if (pkg !== undefined && pkg !== 'toolroute') packages.add(pkg);
      }
    }
  }
  return packages;
}

const FORBIDDEN = generatorOnlyPackages();

/** Why `specifier`, imported by `from` (a runtime file), is not allowed; undefined when it is. */
function violation(from: string, specifier: string): string | undefined {
  const rel = path.relative(REPO, from);
  if (specifier.startsWith('.')) {
    const resolved = resolveRelative(from, specifier);
    if (!resolved.startsWith(RUNTIME + path.sep)) {
      return `${rel} imports '${specifier}', which resolves to ${path.relative(REPO, resolved)}, outside runtime/`;
    }
    return undefined;
  }
  // The package's own generator entry (or its root, which re-exports it).
  if (specifier === 'toolroute' || specifier.startsWith('toolroute/generator')) return `${rel} imports '${specifier}' (the generator)`;
  const pkg = packageOf(specifier);
  if (pkg !== undefined && FORBIDDEN.has(pkg)) return `${rel} imports '${specifier}', a generator-only dependency`;
  return undefined;
}

function violationsOf(file: string, source: string): string[] {
  return importsOf(source).flatMap((spec) => violation(file, spec) ?? []);
}

describe('the runtime imports nothing from the generator', () => {
  it('the checker sees every import form and rejects generator, schema and generator-only packages', () => {
    // The oracle: a fake runtime file with each forbidden kind of import, and allowed ones.
    const file = path.join(RUNTIME, 'targets', 'fake.ts');
    const source = [
      "// import { x } from '../../generator/ir.js'; (a comment: not an import)",
      "import { a } from '../../generator/ir.js';",
      "export { b } from '../../schema/toolspec.js';",
      "import type { C } from 'zod';",
      "import 'yaml';",
      "const d = await import('json-schema-to-typescript');",
      "const e = require('tsx/esm/api');",
      "import { f } from 'toolroute/generator';",
      "import { ok } from '../contract.js';",
      "import { createHash } from 'node:crypto';",
      "const s = 'import x from \"../../generator/cli.js\"';",
    ].join('\n');
    const found = violationsOf(file, source);
    expect(found).toEqual([
      "runtime/targets/fake.ts imports '../../generator/ir.js', which resolves to generator/ir.ts, outside runtime/",
      "runtime/targets/fake.ts imports '../../schema/toolspec.js', which resolves to schema/toolspec.ts, outside runtime/",
      "runtime/targets/fake.ts imports 'zod', a generator-only dependency",
      "runtime/targets/fake.ts imports 'yaml', a generator-only dependency",
      "runtime/targets/fake.ts imports 'json-schema-to-typescript', a generator-only dependency",
      "runtime/targets/fake.ts imports 'tsx/esm/api', a generator-only dependency",
      "runtime/targets/fake.ts imports 'toolroute/generator' (the generator)",
    ]);
  });

  it('the forbidden list includes what the generator really imports', () => {
    for (const pkg of ['ajv', 'yaml', 'zod', 'json-schema-to-typescript']) expect(FORBIDDEN.has(pkg)).toBe(true);
    expect(FORBIDDEN.has('node:crypto')).toBe(false);
  });

  it('no runtime/**/*.ts file imports outside runtime/ or a generator-only package', () => {
    const files = tsFilesUnder(RUNTIME);
    // The walk is real: it reads the target modules and the router.
    expect(files.map((f) => path.relative(RUNTIME, f))).toEqual(expect.arrayContaining(['index.ts', 'router.ts', path.join('targets', 'index.ts')]));
    const found = files.flatMap((file) => violationsOf(file, readFileSync(file, 'utf8')));
    expect(found).toEqual([]);
  });

  it('everything reachable from runtime/index.ts is a file in runtime/', () => {
    const seen = new Set<string>();
    const queue = [path.join(RUNTIME, 'index.ts')];
    while (queue.length > 0) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      expect(file.startsWith(RUNTIME + path.sep), `${path.relative(REPO, file)} is reachable from runtime/index.ts`).toBe(true);
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        if (spec.startsWith('.')) queue.push(resolveRelative(file, spec));
      }
    }
    // The graph is followed, not just the entry: the target modules are reached through compile.
    expect([...seen].map((f) => path.relative(RUNTIME, f))).toEqual(
      expect.arrayContaining([path.join('targets', 'gemini.ts'), path.join('targets', 'strict.ts'), 'cache-key.ts']),
    );
  });
});
