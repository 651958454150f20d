/** YAML specs (and JSON with duplicate keys) through the `yaml` package's Document, which keeps node ranges. */
import { createRequire } from 'node:module';
import type { Document, Node as YamlNode } from 'yaml';
import type { LoadResult, SpecPath } from '../load.js';
import { formatPath } from '../problems.js';
import type { Problem } from '../problems.js';
import { fail, sentence } from './common.js';

/** The `yaml` package, loaded on first use: a JSON or TypeScript spec does not need it. */
let yamlModule: typeof import('yaml') | undefined;
const yaml = (): typeof import('yaml') => (yamlModule ??= createRequire(import.meta.url)('yaml') as typeof import('yaml'));

/**
 * The loader's `yaml` options: YAML 1.2 core schema, duplicate keys reported by us, errors without source excerpts.
 * A spec is JSON data: every key a string (a mapping or list as a key is an error), and no YAML 1.1 types
 * (`!!timestamp`, `!!binary`, `!!set`…: their tags are left unresolved, which the loader reports).
 */
function parse(text: string, lineCounter?: import('yaml').LineCounter): Document {
  return yaml().parseDocument(text, {
    ...(lineCounter ? { lineCounter } : {}), uniqueKeys: false, prettyErrors: false, strict: true, stringKeys: true, resolveKnownTags: false,
  });
}

/** yaml's complaints about keys, tags and documents, said in the spec's terms: message and hint per yaml code. */
const IN_SPEC_TERMS: Readonly<Record<string, { readonly message: (yamlMessage: string) => string; readonly hint: string }>> = {
  NON_STRING_KEY: {
    message: () => 'a key here is a mapping, a list or a tagged value; a key is a name (JSON keys are strings).',
    hint: 'Write the key as a plain name. A `?` or a `{` / `[` before a colon makes a complex key; check the indentation and quotes.',
  },
  MULTIPLE_DOCS: {
    message: () => 'the file holds more than one YAML document (a second `---`); a spec is one document.',
    hint: 'Keep one document: remove the `---` line and what follows it, or merge the two.',
  },
  TAG_RESOLVE_FAILED: {
    // The `yaml` package resolves `!!float` only for values with a dot or an exponent (`!!float 10` fails): a JSON type all the same.
    message: (m) => `${sentence(m.replace(/tag:yaml\.org,2002:/g, '!!'))} ${/!!(float|int|bool|null|str|seq|map)\b/.test(m.replace(/tag:yaml\.org,2002:/g, '!!')) ? 'The YAML parser cannot read this value with that tag.' : 'A spec holds JSON data, which has no such type.'}`,
    hint: 'Remove the tag (`!…`); quote the value if it must stay a string.',
  },
};

/**
 * Parse with `yaml`, report the first syntax error or
 * every duplicate key, else the value (aliases bounded) and `locate` on the Document.
 *
 * @example
 * loadYamlDocument('a: !!str 1\n', 'spec.yaml', 'yaml'); // { ok: true, spec: { value: { a: '1' }, … } }
 */
export function loadYamlDocument(text: string, display: string, format: 'yaml' | 'json'): LoadResult {
  const lineCounter = new (yaml().LineCounter)();
  const problems: Problem[] = [];
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return { line, column: col };
  };
  const doc = parse(text, lineCounter);
  // Only the first syntax error: the ones after it are usually its echoes. yaml's warnings (an unknown tag, a
  // directive it ignores) would change what the file says without a word, so they count as errors.
  for (const e of [...doc.errors, ...doc.warnings].slice(0, 1)) {
    const terms = IN_SPEC_TERMS[e.code];
    problems.push({ code: 'syntax_error', message: `invalid ${format === 'json' ? 'JSON' : 'YAML'}: ${terms ? terms.message(e.message) : sentence(e.message)}`,
      hint: format === 'json' ? 'Fix the JSON syntax.' : (terms?.hint ?? 'Fix the YAML syntax (indentation, quotes, brackets).'),
      file: display, ...at(e.pos[0]), path: '' });
  }
  if (problems.length > 0) return { ok: false, problems };
  // `%YAML 1.1` switches yaml to YAML 1.1's types (`yes` is true, `014` is 12): the spec would say other data than it reads.
  if (doc.directives?.yaml.version === '1.1') {
    return { ok: false, problems: [{ code: 'syntax_error', file: display, ...at(Math.max(0, text.search(/^%YAML\b/m))), path: '',
      message: 'invalid YAML: the file declares `%YAML 1.1`, whose types would change values (`yes` and `on` become true, `014` becomes 12); a spec is read as YAML 1.2.',
      hint: 'Remove the `%YAML 1.1` line (or write `%YAML 1.2`); quote any value that must be a string.' }] };
  }

  checkMappingKeys(doc, display, at, problems);
  if (problems.length > 0) return { ok: false, problems };

  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 1000 });
  } catch (err) {
    return fail(display, 'syntax_error', `cannot read the YAML: ${sentence(err instanceof Error ? err.message : String(err))}`,
      'Use fewer aliases (*name); write the content out instead.');
  }

  const locate = (p: SpecPath, mode: 'value' | 'key' = 'value') => {
    const offset = locateOffset(doc, p, mode);
    return offset === undefined ? { line: 1, column: 1 } : at(offset);
  };
  return { ok: true, spec: { file: display, format, value, locate } };
}

/**
 * Reports what the keys of a mapping say that the spec would read otherwise: every key written twice in one mapping
 * (at the second one, naming the first), and every plain `<<`, a YAML 1.1 merge key, which YAML 1.2 reads as a key
 * named "<<" (so the merged keys would silently be missing).
 *
 * @example
 * checkMappingKeys(doc, 'spec.yaml', at, problems); // duplicate_key for a second `name:`
 */
export function checkMappingKeys(doc: Document, file: string, at: (offset: number) => { line: number; column: number }, problems: Problem[]): void {
  const { isMap, isPair, isScalar, isSeq } = yaml();
  // The path is a chain of parents, made into an array only for a duplicate: specs have many keys.
  type Chain = { readonly up: Chain; readonly seg: string | number } | null;
  const pathOf = (c: Chain): (string | number)[] => (c === null ? [] : [...pathOf(c.up), c.seg]);
  const walk = (node: unknown, p: Chain): void => {
    if (isMap(node)) {
      const seen = new Map<string, number>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        const keyStart = (pair.key as YamlNode | null)?.range?.[0];
        if (key === '<<' && isScalar(pair.key) && pair.key.type === 'PLAIN' && keyStart !== undefined) {
          problems.push({ code: 'syntax_error', file, ...at(keyStart), path: formatPath([...pathOf(p), key]),
            message: 'invalid YAML: `<<` is a merge key of YAML 1.1, which a spec does not read (YAML 1.2 has no merge keys): this mapping would get a key named "<<" and none of the merged ones.',
            hint: 'Write the keys out, or alias the whole value (`parameters: *paged`). Quote it (`"<<":`) for a key that is really named <<.' });
        }
        if (key !== undefined && keyStart !== undefined) {
          const first = seen.get(key);
          if (first !== undefined) {
            problems.push({
              code: 'duplicate_key',
              message: `the key ${JSON.stringify(key)} is written twice in this mapping (first at line ${at(first).line}${at(first).line === at(keyStart).line ? `, column ${at(first).column}` : ''}).`,
              hint: 'Keep one of them: YAML and JSON would silently use only the last one.',
              file, ...at(keyStart), path: formatPath([...pathOf(p), key]),
            });
          } else seen.set(key, keyStart);
        }
        walk(pair.value, key === undefined ? p : { up: p, seg: key });
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, { up: p, seg: i }));
    }
  };
  walk(doc.contents, null);
}

/**
 * The source offset of the node at `p` (or of the deepest node that exists).
 *
 * @example
 * locateOffset(doc, ['tools', 0, 'name'], 'value'); // offset of the first tool's name
 */
export function locateOffset(doc: Document, p: SpecPath, mode: 'value' | 'key'): number | undefined {
  const { isAlias, isMap, isPair, isScalar, isSeq } = yaml();
  let node: unknown = doc.contents;
  let best: number | undefined = (node as YamlNode | null)?.range?.[0];
  for (let i = 0; i < p.length; i++) {
    const seg = p[i];
    const last = i === p.length - 1;
    // A path that continues into an alias (`tools: [a, *c]`) is this use of the aliased node: the alias is where it is
    // written, and where an entry-level problem (a tool defined twice) is fixed.
    if (isAlias(node)) return node.range?.[0] ?? best;
    if (isMap(node)) {
      const pair = node.items.find((it) => isPair(it) && isScalar(it.key) && String(it.key.value) === String(seg));
      if (!pair) return best;
      const keyStart = (pair.key as YamlNode | null)?.range?.[0];
      const valueStart = (pair.value as YamlNode | null)?.range?.[0];
      if (last && mode === 'key') return keyStart ?? best;
      // An empty value (`description:`) has no range of its own: point at its key.
      best = valueStart !== undefined && !(isScalar(pair.value) && pair.value.value === null && pair.value.source === '') ? valueStart : (keyStart ?? best);
      node = pair.value;
    } else if (isSeq(node) && typeof seg === 'number') {
      const item = node.items[seg] as YamlNode | undefined;
      const start = item?.range?.[0];
      if (start === undefined) return best;
      best = start;
      node = item;
    } else {
      return best;
    }
  }
  return best;
}
