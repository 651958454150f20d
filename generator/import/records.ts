/**
 * The import's records and drift check: which tools one import wrote (a
 * `# toolroute-import-mcp: {…}` header comment line per server) and what a
 * live server now publishes differently.
 */
import { isMap, parseDocument, type Document } from 'yaml';
import type { McpTool as Tool } from '../../integrations/mcp/types.js';
import type { Problem } from '../problems.js';

/** How the imported tools are offered: flat tools, one namespace, or one toolkit. */
export const IMPORT_MODES = ['flat', 'namespace', 'toolkit'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

/** The header line that records one import (one per server in the spec). */
export const RECORD_PREFIX = 'toolroute-import-mcp: ';

/** What the spec records about one import. */
export interface ImportRecord {
  /** The group: namespace / toolkit name, policy prefix; the key of this server in the spec. */
  readonly name: string;
  readonly as: ImportMode;
  readonly prefix: string;
  /** `name version` from the server's `initialize`, informational. */
  readonly server: string;
  /** The spec names of the imported tools: those the spec held before in their order, then new ones in the server's order. */
  readonly tools: readonly string[];
  /** The policies this import wrote. */
  readonly policies: readonly string[];
}

/** The tool entry the import writes, as data (what `--check` compares). */
export interface ToolEntry {
  name: string;
  description: string;
  tags: string[];
  parameters: Record<string, unknown>;
  /** The server's `outputSchema`, when it declares one: types the result. */
  returns?: Record<string, unknown>;
}

/**
 * The spec's leading comment block and the node holding it: the document when a blank line follows the block, else
 * (as `yaml` reads a comment right above a key) the first key.
 */
export function leadingComment(doc: Document | undefined): { readonly text: string; readonly firstKey: { commentBefore?: string | null } | undefined } {
  if (doc?.commentBefore) return { text: doc.commentBefore, firstKey: undefined };
  const first = isMap(doc?.contents) ? doc.contents.items[0]?.key : undefined;
  const key = typeof first === 'object' && first !== null ? (first as { commentBefore?: string | null }) : undefined;
  return { text: key?.commentBefore ?? '', firstKey: key?.commentBefore ? key : undefined };
}

/** Reads every import record from a spec's header comment. */
export function readRecords(doc: Document | undefined): ImportRecord[] {
  const comment = leadingComment(doc).text;
  const records: ImportRecord[] = [];
  for (const line of comment.split('\n')) {
    const text = line.trim();
    if (!text.startsWith(RECORD_PREFIX)) continue;
    try {
      const value = JSON.parse(text.slice(RECORD_PREFIX.length)) as Partial<ImportRecord>;
      if (typeof value.name === 'string' && (IMPORT_MODES as readonly string[]).includes(value.as as string) && typeof value.prefix === 'string' && Array.isArray(value.tools)) {
        records.push({
          name: value.name,
          as: value.as as ImportMode,
          prefix: value.prefix,
          server: typeof value.server === 'string' ? value.server : '',
          tools: value.tools.filter((t): t is string => typeof t === 'string'),
          policies: Array.isArray(value.policies) ? value.policies.filter((t): t is string => typeof t === 'string') : [],
        });
      }
    } catch {
      // Not a record (hand-edited): left as an ordinary comment.
    }
  }
  return records;
}

/** A plain object (not null, not an array). */
export function isPlainRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** One drifted tool. */
export interface ImportDrift {
  readonly tool: string;
  readonly change: 'added on the server' | 'removed from the server' | 'changed';
  /** For `changed`: which fields differ. */
  readonly fields?: readonly string[];
}

/** What `import mcp --check` finds. */
export interface ImportCheck {
  /** The drifted tools (empty when in sync). */
  readonly drift: readonly ImportDrift[];
  /**
   * With no drift: the first line an import now would rewrite, when the file is not what the import writes (an edit
   * inside the import's own entries, which a re-import does not keep).
   */
  readonly rewrites?: { readonly line: number; readonly text: string };
  /** With no drift: the server's new `name version`, when that is all an import now would write differently. */
  readonly serverChanged?: { readonly from: string; readonly to: string };
}

/**
 * Checks a saved spec against the import that would be written now. A server that only changed its version is in
 * sync: the import would write the new version into its record (and the group's default description), nothing else.
 *
 * @example
 * checkImport(saved, fresh, savedRecord, freshRecord); // { drift: [], serverChanged: { from: 'memory 1.0.0', to: 'memory 1.0.1' } }
 */
export function checkImport(saved: string, fresh: string, before: ImportRecord, now: ImportRecord): ImportCheck {
  const drift = compareImport(saved, fresh, now.name);
  if (drift.length > 0 || saved === fresh) return { drift };
  // Read as if the saved spec had the new version already: any line still rewritten is someone's edit.
  const moved = before.server !== '' && before.server !== now.server;
  const updated = moved ? saved.split(before.server).join(now.server) : saved;
  if (updated === fresh) return { drift, serverChanged: { from: before.server, to: now.server } };
  const [a, b] = [updated.split('\n'), fresh.split('\n')];
  const i = a.findIndex((line, n) => line !== b[n]);
  const at = i === -1 ? a.length - 1 : i;
  return { drift, rewrites: { line: at + 1, text: saved.split('\n')[at] ?? '' } };
}

/**
 * `entries` sorted in place: the tools `record` lists first, in its order, then the others in the order they came.
 *
 * @example
 * keepRecordOrder(entries, previous); // a server listing its tools in another order changes nothing
 */
export function keepRecordOrder<T extends { readonly entry: { readonly name: string } }>(entries: T[], record: ImportRecord | undefined): T[] {
  const place = new Map(record?.tools.map((name, i) => [name, i]));
  const rank = (e: T) => place.get(e.entry.name) ?? place.size;
  return entries.sort((x, y) => rank(x) - rank(y));
}

/**
 * Compares the saved spec with a fresh import: per tool, what the server now
 * publishes against what the spec holds (name, description, parameters, tags).
 *
 * @example
 * const drift = compareImport(savedText, freshText, 'filesystem'); // [] when in sync
 */
export function compareImport(savedText: string, freshText: string, name: string): ImportDrift[] {
  const saved = importedEntries(parseDocument(savedText), name);
  const fresh = importedEntries(parseDocument(freshText), name);
  const drift: ImportDrift[] = [];
  for (const [tool, entry] of fresh) {
    const old = saved.get(tool);
    if (!old) {
      drift.push({ tool, change: 'added on the server' });
      continue;
    }
    const fields = (['description', 'parameters', 'returns', 'tags'] as const).filter((f) => JSON.stringify(old[f] ?? null) !== JSON.stringify(entry[f] ?? null));
    if (fields.length > 0) drift.push({ tool, change: 'changed', fields });
  }
  for (const tool of saved.keys()) if (!fresh.has(tool)) drift.push({ tool, change: 'removed from the server' });
  return drift;
}

/** The tool entries one import wrote, by spec name (found through its record). */
function importedEntries(doc: Document, name: string): Map<string, Partial<ToolEntry>> {
  const record = readRecords(doc).find((r) => r.name === name);
  const out = new Map<string, Partial<ToolEntry>>();
  if (!record) return out;
  const wanted = new Set(record.tools);
  const spec = doc.toJS() as Record<string, unknown> | null;
  if (!isPlainRecord(spec)) return out;
  const lists: unknown[][] = [];
  if (Array.isArray(spec['tools'])) lists.push(spec['tools']);
  for (const key of ['namespaces', 'toolkits']) {
    if (Array.isArray(spec[key])) for (const g of spec[key]) if (isPlainRecord(g) && g['name'] === name && Array.isArray(g['tools'])) lists.push(g['tools']);
  }
  for (const list of lists) {
    for (const e of list) {
      if (isPlainRecord(e) && typeof e['name'] === 'string' && wanted.has(e['name'])) out.set(e['name'], e as Partial<ToolEntry>);
    }
  }
  // A recorded tool that was deleted from the file by hand counts as drift too.
  for (const t of record.tools) if (!out.has(t)) out.set(t, { name: t, description: '(missing from the saved spec)' });
  return out;
}

/** MCP annotations with the protocol's defaults applied, as tags. */
export function annotationTags(annotations: Tool['annotations']): string[] {
  const readOnly = annotations?.readOnlyHint === true;
  // MCP: destructiveHint and idempotentHint are meaningful only when the tool is not read-only; destructiveHint defaults to true, openWorldHint to true.
  const destructive = !readOnly && annotations?.destructiveHint !== false;
  const idempotent = readOnly || annotations?.idempotentHint === true;
  const openWorld = annotations?.openWorldHint !== false;
  const tags: string[] = [];
  if (readOnly) tags.push('read-only');
  if (destructive) tags.push('destructive');
  if (idempotent) tags.push('idempotent');
  if (openWorld) tags.push('open-world');
  return tags;
}

/**
 * What to pass for the clashes among `problems`: `--prefix` for a tool name, `--name` for a group or policy name.
 * @example clashAdvice([{ code: 'name_collision', path: 'namespaces[1].name', … }]); // '(Lines refer …) For the clash, pass --name <group> …'
 */
export function clashAdvice(problems: readonly Problem[]): string {
  const clashes = problems.filter((p) => p.code === 'name_collision' || p.code === 'duplicate_tool' || p.code === 'duplicate_key');
  const group = clashes.some((p) => /^(namespaces|toolkits)\[\d+\]\.name$|^policies\./.test(p.path));
  const tool = clashes.some((p) => !/^(namespaces|toolkits)\[\d+\]\.name$|^policies\./.test(p.path));
  if (!group && !tool) return '(Lines refer to the spec as this import would write it.)';
  const fixes = [...(tool ? ['--prefix <p> to give the imported tools other names'] : []), ...(group ? ['--name <group> to give the import\'s group and policies other names'] : [])];
  return `(Lines refer to the spec as this import would write it.) For the clash, pass ${fixes.join(', or ')}.`;
}
