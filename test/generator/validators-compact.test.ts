/**
 * validators.gen.ts reports errors through two helpers instead of ajv's
 * eight-line blocks (`compactErrors` in generator/emit/validators.ts, for a
 * module that loads faster). These tests prove the rewrite changes nothing a
 * caller can see: every schema of the JSON Schema Test Suite (both drafts,
 * with and without own-property checks) is compiled by ajv once, its
 * standalone code is run as ajv wrote it and as rewritten, on every suite
 * instance and on a few generic wrong values, and the verdicts and the error
 * lists (every key, in order, by JSON text) must be equal. The scanner's
 * edge cases (quotes, brackets and commas inside strings, blocks of another
 * shape) are checked on hand-written input.
 */
import { createRequire } from 'node:module';
import { Ajv, type Options } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import standaloneCodeModule from 'ajv/dist/standalone/index.js';
import { describe, expect, it } from 'vitest';
import { compactErrors, ERROR_HELPERS, UCS2_LENGTH } from '../../generator/emit/validators.js';
import { loadSuite, type SuiteGroup } from '../spec/json-schema-suite.js';
import { rng } from '../targets/rng.js';

const addFormats = ((addFormatsModule as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;
const standaloneCode = ((standaloneCodeModule as { default?: unknown }).default ?? standaloneCodeModule) as (ajv: Ajv, refs: Record<string, string>) => string;
const requireHere = createRequire(import.meta.url);

type Validate = ((data: unknown) => boolean) & { errors?: unknown };

/** Runs CommonJS standalone code and returns its exports. */
function load(code: string): Record<string, Validate> {
  const module = { exports: {} as Record<string, Validate> };
  new Function('require', 'module', 'exports', code)(requireHere, module, module.exports);
  return module.exports;
}

/** ajv's standalone code for the groups that compile, keyed `v<index>`, as written and as rewritten. */
function build(groups: readonly SuiteGroup[], dialect: SuiteGroup['dialect'], ownProperties: boolean) {
  const options: Options = { code: { source: true, lines: true }, allErrors: true, ownProperties, strictNumbers: true, strict: false, logger: false };
  const ajv = dialect === 'draft7' ? new Ajv(options) : new Ajv2020(options);
  addFormats(ajv);
  const refs: Record<string, string> = {};
  const compiled: { key: string; group: SuiteGroup }[] = [];
  groups.forEach((group, i) => {
    const key = `v${i}`;
    try {
      ajv.addSchema(group.schema as object, key);
    } catch {
      return; // an $id another group took: nothing to compare
    }
    try {
      // Compiled now, so one that ajv cannot compile (remote refs, …) is dropped before the standalone build.
      ajv.getSchema(key);
      refs[key] = key;
      compiled.push({ key, group });
    } catch {
      ajv.removeSchema(key);
    }
  });
  const raw = standaloneCode(ajv, refs);
  return { raw, compact: `${ERROR_HELPERS}\n${compactErrors(raw)}`, compiled };
}

describe('compactErrors on the JSON Schema Test Suite', () => {
  const suite = loadSuite();
  for (const dialect of ['draft7', 'draft2020-12'] as const) {
    // Own-property checks change how ajv reads properties, not how it reports errors: one dialect suffices.
    for (const ownProperties of dialect === 'draft7' ? [false, true] : [false]) {
      it(`${dialect}${ownProperties ? ', ownProperties' : ''}: same verdicts, same error lists`, () => {
        const { raw, compact, compiled } = build(
          suite.filter((g) => g.dialect === dialect),
          dialect,
          ownProperties,
        );
        expect(compiled.length).toBeGreaterThan(100);
        // The rewrite happened and made the code much smaller; the few blocks left as ajv wrote them are those
        // whose error object spans several lines (`dependencies` parameters), which the rewrite does not read.
        const blocks = (code: string) => code.match(/^const err\d+ = \{/gm)?.length ?? 0;
        expect(blocks(raw)).toBeGreaterThan(300);
        expect(blocks(compact)).toBeLessThan(blocks(raw) / 20);
        for (const left of compact.match(/^const err\d+ = \{.*$/gm) ?? []) expect(left).not.toMatch(/\};$/);
        // Each rewritten block loses its if/else lines and its key names: well over 40 characters.
        expect(compact.length).toBeLessThan(raw.length - 40 * (blocks(raw) - blocks(compact)));
        const before = load(raw);
        const after = load(compact);
        let rejected = 0;
        for (const { key, group } of compiled) {
          const instances = [...group.tests.map((t) => t.data), null, 1.5, 'x', [], {}, [1, 'a', null], { a: 1, b: [null] }];
          for (const data of instances) {
            const a = before[key]!;
            const b = after[key]!;
            // A recursive schema can overflow the stack on a generic value: then both must.
            const run = (v: Validate) => {
              try {
                return v(structuredClone(data));
              } catch (e) {
                return (e as Error).name;
              }
            };
            const okA = run(a);
            const okB = run(b);
            expect(okB, `${group.id}: ${JSON.stringify(data)}`).toBe(okA);
            expect(JSON.stringify(b.errors), `${group.id}: ${JSON.stringify(data)}`).toBe(JSON.stringify(a.errors));
            if (okA === false) rejected++;
          }
        }
        expect(rejected).toBeGreaterThan(1000);
      });
    }
  }
});

describe('compactErrors on hand-written blocks', () => {
  const block = (err: string, object: string) => [`const ${err} = ${object};`, 'if(vErrors === null){', `vErrors = [${err}];`, '}', 'else {', `vErrors.push(${err});`, '}', 'errors++;'].join('\n');

  it('splits members only at top-level commas: strings with quotes, brackets and commas stay whole', () => {
    const object = String.raw`{instancePath:instancePath+"/a,b}",schemaPath:"#/properties/a%2C%7D/pattern",keyword:"pattern",params:{pattern: "^[,}{]\"'$"},message:'must match pattern "^[,}{]\"\'$"'}`;
    const out = compactErrors(block('err7', object));
    expect(out).toBe(String.raw`vErrors = __ajvError(vErrors, instancePath+"/a,b}", "#/properties/a%2C%7D/pattern", "pattern", {pattern: "^[,}{]\"'$"}, 'must match pattern "^[,}{]\"\'$"');` + '\nerrors++;');
  });

  it('keeps an error object of another shape whole (pushed as it is) and leaves code that is no error block alone', () => {
    const object = '{instancePath,schemaPath:"#/propertyNames",keyword:"propertyNames",params:{propertyName: key0},message:"property name must be valid",propertyName:key0}';
    expect(compactErrors(block('err2', object))).toBe(`vErrors = __ajvPush(vErrors, ${object});\nerrors++;`);
    const other = ['const err1 = {instancePath};', 'if(vErrors === null){', 'vErrors = [err0];', '}'].join('\n');
    expect(compactErrors(other)).toBe(other);
    const unbalanced = block('err3', '{instancePath,schemaPath:"#/x",keyword:"x",params:{a: [1},message:"m"}');
    expect(compactErrors(unbalanced)).toBe(unbalanced);
  });

  it('builds the same error objects, appended the same way, as the code it replaces', () => {
    const helpers = new Function(`${ERROR_HELPERS}\nreturn { __ajvError, __ajvPush };`)() as {
      __ajvError: (v: unknown[] | null, ...rest: unknown[]) => unknown[];
    };
    const first = helpers.__ajvError(null, '/a', '#/type', 'type', { type: 'string' }, 'must be string');
    expect(JSON.stringify(first)).toBe('[{"instancePath":"/a","schemaPath":"#/type","keyword":"type","params":{"type":"string"},"message":"must be string"}]');
    const same = helpers.__ajvError(first, '', '#/required', 'required', { missingProperty: 'b' }, "must have required property 'b'");
    expect(same).toBe(first);
    expect(first).toHaveLength(2);
  });
});

describe('the inlined ucs2length', () => {
  it('counts exactly as ajv\'s own, lone and paired surrogates included', () => {
    const ajvs = (requireHere('ajv/dist/runtime/ucs2length.js') as { default: (s: string) => number }).default;
    const ours = new Function(`${UCS2_LENGTH}\nreturn __ajvUcs2length;`)() as (s: string) => number;
    const units = ['a', 'é', '中', '\ud83d', '\ude00', '\ud83d\ude00', '\udbff\udfff', '\ud800', '\udc00', '\u0000'];
    const next = rng(7);
    const samples = ['', ...units];
    for (let i = 0; i < 2000; i++) samples.push(Array.from({ length: Math.floor(next() * 8) }, () => units[Math.floor(next() * units.length)]).join(''));
    for (const text of samples) expect(ours(text), JSON.stringify(text)).toBe(ajvs(text));
    expect(ours('a\ud83d\ude00\ud83d')).toBe(3);
  });
});

