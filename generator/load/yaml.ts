/**
 * YAML specs (and JSON nested too deep for the JSON scanner): duplicate keys
 * found on the parsed document with both positions, and source offsets of a
 * spec path for `locate`. Parsing itself is in `loadText` (load.ts). Error
 * code (fixtures in test/fixtures/invalid/): duplicate_key (duplicate-key).
 */
import { isAlias, isMap, isPair, isScalar, isSeq } from 'yaml';
import type { Document, Node as YamlNode } from 'yaml';
import type { SpecPath } from '../load.js';
import { formatPath } from '../problems.js';
import type { Problem } from '../problems.js';

/**
 * Reports every key written twice in one mapping, at the second one, naming the first.
 *
 * @example
 * findDuplicateKeys(doc, 'spec.yaml', at, problems); // duplicate_key for a second `name:`
 */
export function findDuplicateKeys(doc: Document, file: string, at: (offset: number) => { line: number; column: number }, problems: Problem[]): void {
  const walk = (node: unknown, p: (string | number)[]): void => {
    if (isMap(node)) {
      const seen = new Map<string, number>();
      for (const pair of node.items) {
        if (!isPair(pair)) continue;
        const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
        const keyStart = (pair.key as YamlNode | null)?.range?.[0];
        if (key !== undefined && keyStart !== undefined) {
          const first = seen.get(key);
          if (first !== undefined) {
            problems.push({
              code: 'duplicate_key',
              message: `the key ${JSON.stringify(key)} is written twice in this mapping (first at line ${at(first).line}${at(first).line === at(keyStart).line ? `, column ${at(first).column}` : ''}).`,
              hint: 'Keep one of them: YAML and JSON would silently use only the last one.',
              file, ...at(keyStart), path: formatPath([...p, key]),
            });
          } else seen.set(key, keyStart);
        }
        walk(pair.value, key === undefined ? p : [...p, key]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...p, i]));
    }
  };
  walk(doc.contents, []);
}

/**
 * The source offset of the node at `p` (or of the deepest node that exists).
 *
 * @example
 * locateOffset(doc, ['tools', 0, 'name'], 'value'); // offset of the first tool's name
 */
export function locateOffset(doc: Document, p: SpecPath, mode: 'value' | 'key'): number | undefined {
  let node: unknown = doc.contents;
  let best: number | undefined = (node as YamlNode | null)?.range?.[0];
  for (let i = 0; i < p.length; i++) {
    const seg = p[i];
    const last = i === p.length - 1;
    if (isAlias(node)) node = node.resolve(doc);
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
