/**
 * The prune matcher: which flat tools a task text selects.
 *
 * OWNER: the router runtime work (issue 3). This first version is a
 * placeholder with the final signatures and the seed's exact semantics
 * (case-insensitive substring match of a tool's name or any tag; untagged
 * tools always kept), built naively so the generator can serialize it.
 */
import type { PruneMatcherData } from './contract.js';

interface NaiveAutomaton {
  /** Lowercased keyword → flat positions it selects. */
  readonly keywords: readonly (readonly [string, readonly number[]])[];
}

/**
 * Build the matcher for the flat tools, in flat order. Runs at codegen time.
 *
 * @example
 * const m = buildPruneMatcher([{ name: 'read_file', tags: ['file'] }, { name: 'get_time', tags: [] }]);
 * matchTask(m, 'Read the auth.ts file'); // → [0, 1]
 */
export function buildPruneMatcher(flat: readonly { readonly name: string; readonly tags: readonly string[] }[]): PruneMatcherData {
  const always: number[] = [];
  const byKeyword = new Map<string, number[]>();
  flat.forEach((tool, position) => {
    if (tool.tags.length === 0) {
      always.push(position);
      return;
    }
    for (const word of [tool.name, ...tool.tags]) {
      const key = word.toLowerCase();
      const list = byKeyword.get(key) ?? [];
      if (list[list.length - 1] !== position) list.push(position);
      byKeyword.set(key, list);
    }
  });
  const automaton: NaiveAutomaton = { keywords: [...byKeyword.entries()] };
  return { always, automaton };
}

/**
 * Flat positions the task selects, ascending.
 *
 * @example
 * matchTask(matcher, 'Read the auth.ts file');
 */
export function matchTask(matcher: PruneMatcherData, task: string): number[] {
  const lower = task.toLowerCase();
  const hit = new Set<number>(matcher.always);
  for (const [word, positions] of (matcher.automaton as NaiveAutomaton).keywords) {
    if (lower.includes(word)) for (const p of positions) hit.add(p);
  }
  return [...hit].sort((a, b) => a - b);
}
