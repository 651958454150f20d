/**
 * `toolroute import mcp`: an MCP server's `tools/list` becomes (part of) a spec. `buildMcpImport` is
 * pure; `importMcp` connects, lists every page, and writes or checks. Every fix is written as a
 * comment next to the tool: nothing is fixed silently.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isMap, isScalar, isSeq, parseDocument, visit, type Document, YAMLMap, YAMLSeq } from 'yaml';
import { connectMcp, listAllTools, type McpServerTarget } from '../../integrations/mcp/connect.js';
import { groupNameOf, specToolNames } from '../../integrations/mcp/names.js';
import type { McpSdkLine } from '../../integrations/mcp/sdk.js';
import type { McpTool as Tool } from '../../integrations/mcp/types.js';
import { loadText } from '../load.js';
import { errorCode } from '../load/common.js';
import { formatProblem, type Problem } from '../problems.js';
import { validateSpec } from '../validate.js';
import { keepWrittenLines } from './keep-lines.js';
import { annotationTags, checkImport, clashAdvice, isPlainRecord, keepRecordOrder, leadingComment, readRecords, RECORD_PREFIX, type ImportCheck, type ImportMode, type ImportRecord, type ToolEntry } from './records.js';

export { annotationTags, checkImport, compareImport, IMPORT_MODES, readRecords, RECORD_PREFIX, type ImportCheck, type ImportDrift, type ImportMode, type ImportRecord } from './records.js';

export interface McpImportOptions {
  /** Default `namespace`. */
  readonly as?: ImportMode;
  /** Group name; default: the recorded one, else the server's name made portable. */
  readonly name?: string;
  /** Tool name prefix; default: the recorded one, else `<name>_` when the spec holds anything else, else none. */
  readonly prefix?: string;
  /** Description of the namespace / toolkit. */
  readonly description?: string;
}

/** A fix the import made so the generator accepts a tool, or a tool it left out. */
export interface ImportNote {
  /** The server's tool name. */
  readonly tool: string;
  readonly kind: 'renamed' | 'described' | 'untyped' | 'skipped';
  readonly message: string;
}

export interface McpImportBuild {
  /** The new spec text; undefined when problems keep it from being written. */
  readonly text: string | undefined;
  readonly record: ImportRecord;
  readonly notes: readonly ImportNote[];
  /** Problems in the resulting spec (including parts the import did not write), or in the saved file. */
  readonly problems: readonly string[];
}

const EMPTY_PARAMETERS = { type: 'object', properties: {} } as const;

/** How the import prints YAML: no line folding, flow collections as people write them (`[a, b]`). */
const PRINT = { lineWidth: 0, flowCollectionPadding: false } as const;

/** Which schema of a tool entry a problem's path is in (`tools[2].parameters["x-a"]`, `toolkits[0].tools[1].returns.type`). */
const ENTRY_SCHEMA = /^(?:(?:namespaces|toolkits)\[\d+\]\.)?tools\[\d+\]\.(parameters|returns)(?=[.[]|$)/;

/**
 * Builds the spec text for an import of `tools` into `savedText` (undefined: a new file).
 * Pure and deterministic: same inputs, same bytes.
 *
 * @example
 * const built = buildMcpImport(tools, undefined, { as: 'namespace', name: 'memory' }, { name: 'memory-server', version: '0.6.3' }, 'memory.yaml');
 * if (built.text !== undefined) await writeFile('memory.yaml', built.text);
 */
export function buildMcpImport(
  tools: readonly Tool[],
  savedText: string | undefined,
  options: McpImportOptions,
  server: { readonly name: string; readonly version: string } | undefined,
  display: string,
): McpImportBuild {
  const problems: string[] = [];
  const doc = savedText === undefined ? undefined : parseDocument(savedText);
  if (doc && doc.errors.length > 0) problems.push(`${display}: not valid YAML (${doc.errors[0]!.message.split('\n')[0]}); fix or remove the file.`);
  if (doc && doc.contents !== null && !isMap(doc.contents)) problems.push(`${display}: the saved spec is not a mapping; fix or remove the file.`);
  const records = problems.length === 0 ? readRecords(doc) : [];
  const serverLabel = server ? `${server.name} ${server.version}` : 'unknown server';
  // Default group: the one this same server was imported as before, else its name made portable.
  const name =
    options.name ?? records.find((r) => server !== undefined && (r.server === serverLabel || r.server.startsWith(`${server.name} `)))?.name ?? groupNameOf(server?.name ?? 'mcp');
  const previous = records.find((r) => r.name === name);
  const as = options.as ?? previous?.as ?? 'namespace';
  const othersExist = doc !== undefined && hasOtherContent(doc, previous);
  const prefix = options.prefix ?? previous?.prefix ?? (othersExist ? `${name}_` : '');
  const record0 = { name, as, prefix, server: serverLabel };
  if (problems.length > 0) return { text: undefined, record: { ...record0, tools: [], policies: [] }, notes: [], problems };

  // 1. The tool entries, with every fix noted.
  const notes: ImportNote[] = [];
  const entries: { entry: ToolEntry; comments: string[]; readOnly: boolean; destructive: boolean }[] = [];
  const named = specToolNames(prefix, tools);
  for (const [i, tool] of tools.entries()) {
    if (named[i] === undefined) {
      notes.push({ tool: tool.name, kind: 'skipped', message: `skipped "${tool.name}": it runs only as an MCP task (execution.taskSupport "required"), which a plain tools/call cannot start.` });
      continue;
    }
    const comments: string[] = [];
    const { name: specName, fix } = named[i];
    if (fix) {
      const message = `name "${tool.name}" written as "${specName}": ${fix.why}.`;
      comments.push(`import: ${message}`);
      notes.push({ tool: tool.name, kind: 'renamed', message });
    }
    let description = typeof tool.description === 'string' ? tool.description : '';
    if (description.trim() === '') {
      description = tool.title?.trim() || `The "${tool.name}" tool of ${serverLabel}.`;
      const message = `"${tool.name}" has no description; wrote ${JSON.stringify(description)} (its title, or a generic one) because every tool needs one.`;
      comments.push(`import: ${message}`);
      notes.push({ tool: tool.name, kind: 'described', message });
    }
    const tags = annotationTags(tool.annotations);
    if (as === 'flat') tags.push(name);
    const parameters = (isPlainRecord(tool.inputSchema) ? structuredClone(tool.inputSchema) : { ...EMPTY_PARAMETERS }) as Record<string, unknown>;
    const returns = isPlainRecord(tool.outputSchema) ? (structuredClone(tool.outputSchema) as Record<string, unknown>) : undefined;
    entries.push({
      entry: { name: specName, description, tags, parameters, ...(returns !== undefined ? { returns } : {}) },
      comments,
      readOnly: tags.includes('read-only'),
      destructive: tags.includes('destructive'),
    });
  }

  // A tool the spec holds keeps its place: a server listing its tools in another order rewrites nothing.
  keepRecordOrder(entries, previous);

  // 2. Find tools the generator refuses, leave them out with their reason, and retry.
  // Lines of the saved spec the import leaves alone keep their bytes (spacing, comments, flow style).
  const canonical = doc?.toString(PRINT);
  for (let round = 0; round < 3; round++) {
    const rendered = render(doc, previous, record0, entries, notes, options, serverLabel, as, name);
    const text = savedText === undefined || canonical === undefined ? rendered : keepWrittenLines(savedText, canonical, rendered);
    const found = specProblems(text, display);
    if (found.length === 0) {
      const record = recordOf(record0, entries);
      return { text, record, notes, problems: [] };
    }
    const refused = new Map<number, Problem[]>();
    // An output schema the generator refuses costs only the result type, not the tool.
    const returnsRefused = new Map<number, Problem[]>();
    const other: Problem[] = [];
    for (const p of found) {
      // Only a schema the generator refuses is left out (the tool cannot be offered as published);
      // a name clash with other content is the user's to resolve (--prefix), so nothing is written.
      const part = ENTRY_SCHEMA.exec(p.path)?.[1];
      const index = part === undefined ? undefined : importedIndex(p.path, as, name, doc, previous, entries.length);
      const into = part === 'returns' ? returnsRefused : refused;
      if (index === undefined) other.push(p);
      else into.set(index, [...(into.get(index) ?? []), p]);
    }
    for (const [index, list] of returnsRefused) {
      if (refused.has(index)) continue;
      const e = entries[index]!;
      delete e.entry.returns;
      const message = `the output schema of "${e.entry.name}" is not kept (its result stays untyped): the generator refuses it: ${list.map((p) => `[${p.code}] ${p.message}`).join(' ')}`;
      e.comments.push(`import: ${message}`);
      notes.push({ tool: e.entry.name, kind: 'untyped', message });
    }
    if (other.length > 0 || (refused.size === 0 && returnsRefused.size === 0)) {
      return {
        text: undefined,
        record: recordOf(record0, entries),
        notes,
        // The lines are those of the text this import would write (the file on disk does not hold it), and the fix of a
        // clash depends on what clashed: a tool name takes another prefix, a group or policy name another --name.
        problems: [...found.map((p) => formatProblem({ ...p, file: `${p.file} (as this import would write it)` })), clashAdvice(found)],
      };
    }
    for (const [index, list] of [...refused].sort((a, b) => b[0] - a[0])) {
      const e = entries[index]!;
      notes.push({
        tool: e.entry.name,
        kind: 'skipped',
        message: `skipped "${e.entry.name}": the generator refuses it: ${list.map((p) => `[${p.code}] ${p.message}`).join(' ')}`,
      });
      entries.splice(index, 1);
    }
  }
  return { text: undefined, record: recordOf(record0, entries), notes, problems: ['the import kept producing problems; this is a bug in toolroute.'] };
}

function recordOf(r: Omit<ImportRecord, 'tools' | 'policies'>, entries: readonly { entry: ToolEntry }[]): ImportRecord {
  return { ...r, tools: entries.map((e) => e.entry.name), policies: [`${r.name}_readonly`, `${r.name}_nondestructive`] };
}

/** Whether the saved spec holds anything besides this server's previous import (other servers, local tools). */
function hasOtherContent(doc: Document, previous: ImportRecord | undefined): boolean {
  const mine = new Set(previous?.tools ?? []);
  const spec = doc.toJS() as Record<string, unknown> | null;
  if (!isPlainRecord(spec)) return false;
  const names = (list: unknown): unknown[] => (Array.isArray(list) ? list.map((e) => (isPlainRecord(e) ? e['name'] : e)) : []);
  if (names(spec['tools']).some((n) => !mine.has(n as string))) return true;
  for (const key of ['namespaces', 'toolkits'] as const) {
    if (names(spec[key]).some((n) => n !== previous?.name)) return true;
  }
  return false;
}

/** The spec text: the saved document with this server's old entries replaced by the new ones. */
function render(
  saved: Document | undefined,
  previous: ImportRecord | undefined,
  record: Omit<ImportRecord, 'tools' | 'policies'>,
  entries: readonly { entry: ToolEntry; comments: string[]; readOnly: boolean; destructive: boolean }[],
  notes: readonly ImportNote[],
  options: McpImportOptions,
  serverLabel: string,
  as: ImportMode,
  name: string,
): string {
  const doc = saved ? saved.clone() : parseDocument('version: 1\n');
  if (!isMap(doc.contents)) doc.contents = doc.createNode({ version: 1 }) as never;
  const root = doc.contents as unknown as YAMLMap;
  if (!root.has('version')) root.set('version', 1);
  const mine = new Set(previous?.tools ?? []);

  // Remove what the previous import of this server wrote, remembering where it was:
  // a re-import puts the new entries in the same place, so an unchanged server changes no byte.
  const at = new Map<string, number>();
  const removeFrom = (key: string, drop: (item: unknown) => boolean) => {
    const list = root.get(key);
    if (!isSeq(list)) return;
    const first = list.items.findIndex(drop);
    if (first >= 0) at.set(key, first);
    list.items = list.items.filter((item) => !drop(item));
  };
  removeFrom('tools', (item) => (isMap(item) && mine.has(String(item.get('name')))) || mine.has(String((item as { value?: unknown }).value ?? '')));
  for (const key of ['namespaces', 'toolkits']) removeFrom(key, (item) => isMap(item) && previous !== undefined && item.get('name') === previous.name);
  const policies = root.get('policies');
  let policyAt: number | undefined;
  if (isMap(policies)) {
    const old = new Set(previous?.policies ?? []);
    const keyOf = (pair: { key: unknown }) => String((pair.key as { value?: unknown })?.value ?? pair.key);
    const first = policies.items.findIndex((pair) => old.has(keyOf(pair)));
    if (first >= 0) policyAt = first;
    policies.items = policies.items.filter((pair) => !old.has(keyOf(pair)));
  }

  // The new entries.
  const nodes = entries.map(({ entry, comments }) => {
    const node = doc.createNode(entry) as YAMLMap;
    if (comments.length > 0) node.commentBefore = comments.map((c) => ` ${c}`).join('\n');
    return node;
  });
  const description = options.description ?? `Tools of the MCP server ${serverLabel}.`;
  const appendTo = (key: string, items: unknown[]) => {
    let list = root.get(key);
    if (!isSeq(list)) {
      list = new YAMLSeq();
      root.set(key, list);
    }
    const seq = list as YAMLSeq;
    seq.items.splice(Math.min(at.get(key) ?? seq.items.length, seq.items.length), 0, ...(items as never[]));
  };
  if (nodes.length > 0) {
    if (as === 'flat') appendTo('tools', nodes);
    else {
      const group = doc.createNode({ name, description, tools: [] }) as YAMLMap;
      (group.get('tools') as YAMLSeq).items.push(...(nodes as never[]));
      appendTo(as === 'namespace' ? 'namespaces' : 'toolkits', [group]);
    }
  }
  let policyMap = root.get('policies');
  if (!isMap(policyMap)) {
    policyMap = new YAMLMap();
    root.set('policies', policyMap);
  }
  const readonlyBlock = entries.filter((e) => !e.readOnly).map((e) => e.entry.name);
  const nondestructiveBlock = entries.filter((e) => e.destructive).map((e) => e.entry.name);
  const pairs = [doc.createPair(`${name}_readonly`, readonlyBlock), doc.createPair(`${name}_nondestructive`, nondestructiveBlock)];
  const policyItems = (policyMap as YAMLMap).items;
  policyItems.splice(Math.min(policyAt ?? policyItems.length, policyItems.length), 0, ...(pairs as never[]));
  // `policies` last, after every group, whatever the saved order.
  const policyPair = root.items.find((p) => (p.key as { value?: unknown })?.value === 'policies' || p.key === 'policies');
  if (policyPair) {
    root.items = root.items.filter((p) => p !== policyPair);
    root.items.push(policyPair);
  }

  // The header: records of every import in this spec, this one replaced, plus what was left out.
  const records = readRecords(saved).filter((r) => r.name !== record.name);
  records.push(recordOf(record, entries));
  records.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  // A leading block with no blank line below it is the first key's to `yaml`: it moves into the header (which a blank line follows).
  const leading = leadingComment(saved);
  if (leading.firstKey) leadingComment(doc).firstKey!.commentBefore = undefined;
  const ours = (line: string) => line.trim().startsWith(RECORD_PREFIX) || line.trim().startsWith(`skipped by import of ${record.name}:`) || line.includes('Written by `toolroute import mcp`');
  const kept = leading.text.split('\n').filter((line) => !ours(line));
  // An editor's schema modeline stays on the first line, where editors look for it.
  const modeline = kept[0]?.trimStart().startsWith('yaml-language-server:') ? kept.splice(0, 1) : [];
  const skipped = notes.filter((n) => n.kind === 'skipped').map((n) => ` skipped by import of ${record.name}: ${oneLine(n.message)}`);
  const header = [
    ...modeline,
    ' Written by `toolroute import mcp`; re-run it to update the imported tools (edits to them are reported by --check).',
    ...records.map((r) => ` ${RECORD_PREFIX}${JSON.stringify(r)}`),
    ...skipped,
    ...kept.filter((line, i) => !(i === kept.length - 1 && line.trim() === '')),
  ];
  doc.commentBefore = header.join('\n');
  // yaml writes a key named "<<" plain, which reads as a YAML 1.1 merge key (refused by the spec loader): quote it.
  visit(doc, { Pair: (_, pair) => void (isScalar(pair.key) && pair.key.value === '<<' && (pair.key.type = 'QUOTE_DOUBLE')) });
  return doc.toString(PRINT);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Problems the generator would report for this spec text. */
function specProblems(text: string, display: string): Problem[] {
  const loaded = loadText(text, display, 'yaml');
  if (!loaded.ok) return loaded.problems;
  return validateSpec(loaded.spec);
}

/** Which new entry a problem's spec path points into, or undefined when it is elsewhere. */
function importedIndex(
  problemPath: string,
  as: ImportMode,
  name: string,
  saved: Document | undefined,
  previous: ImportRecord | undefined,
  count: number,
): number | undefined {
  // Recompute where the new entries landed: after the saved entries that survived.
  const spec = (saved?.toJS() ?? {}) as Record<string, unknown>;
  const mine = new Set(previous?.tools ?? []);
  // Same placement rule as `render`: where the previous import's first entry was, else at the end.
  if (as === 'flat') {
    const list: unknown[] = Array.isArray(spec['tools']) ? spec['tools'] : [];
    const isMine = (e: unknown) => mine.has(isPlainRecord(e) ? String(e['name']) : String(e));
    const first = list.findIndex(isMine);
    const offset = first >= 0 ? first : list.filter((e) => !isMine(e)).length;
    const m = /^tools\[(\d+)\]/.exec(problemPath);
    const i = m ? Number(m[1]) - offset : -1;
    return i >= 0 && i < count ? i : undefined;
  }
  const key = as === 'namespace' ? 'namespaces' : 'toolkits';
  const list: unknown[] = Array.isArray(spec[key]) ? spec[key] : [];
  const isMine = (g: unknown) => isPlainRecord(g) && previous !== undefined && g['name'] === previous.name;
  const first = list.findIndex(isMine);
  const groups = first >= 0 ? first : list.filter((g) => !isMine(g)).length;
  const m = new RegExp(`^${key}\\[${groups}\\]\\.tools\\[(\\d+)\\]`).exec(problemPath);
  void name;
  const i = m ? Number(m[1]) : -1;
  return i >= 0 && i < count ? i : undefined;
}

export interface ImportMcpRequest extends McpImportOptions {
  /** The spec file to write (YAML). */
  readonly out: string;
  readonly server: McpServerTarget;
  readonly check?: boolean;
  readonly cwd?: string;
  /** The MCP SDK line to connect with; default: `TOOLROUTE_MCP_SDK`, else the installed one (2.x first). */
  readonly sdk?: McpSdkLine;
}

export interface ImportMcpResult extends ImportCheck {
  readonly ok: boolean;
  /** Display path of the spec. */
  readonly out: string;
  readonly record: ImportRecord | undefined;
  readonly notes: readonly ImportNote[];
  readonly problems: readonly string[];
  /** Whether the file was written (false with `check`, on problems, or when already identical). */
  readonly written: boolean;
}

/**
 * Imports (or, with `check`, compares) one MCP server's tools into a spec file.
 * Never throws for a user mistake: an unreachable server or a bad saved spec
 * comes back in `problems`.
 *
 * @example
 * const r = await importMcp({ out: 'tools.spec.yaml', as: 'namespace', name: 'memory',
 *   server: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-memory'] } });
 */
export async function importMcp(request: ImportMcpRequest): Promise<ImportMcpResult> {
  const cwd = path.resolve(request.cwd ?? process.cwd());
  const file = path.resolve(cwd, request.out);
  const display = path.relative(cwd, file).split(path.sep).join('/') || path.basename(file);
  const fail = (problems: string[], extra: Partial<ImportMcpResult> = {}): ImportMcpResult => ({
    ok: false, out: display, record: undefined, notes: [], problems, drift: [], written: false, ...extra,
  });
  if (!/\.ya?ml$/i.test(file)) return fail([`--out must be a .yaml or .yml file (got ${display}).`]);
  let saved: string | undefined;
  // The file's byte-order mark and CRLF line ends are kept: the import works on the text without them.
  let style = { bom: false, crlf: false };
  try {
    const raw = await readFile(file, 'utf8');
    style = { bom: raw.startsWith('\uFEFF'), crlf: raw.includes('\r\n') };
    saved = raw.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return fail([`cannot read ${display} (${errorCode(error)}).`]); // the code: messages name absolute paths
  }
  if (request.check === true && saved === undefined) return fail([`${display} does not exist; import it first (the same command without --check).`]);

  let tools: Tool[];
  let server: { name: string; version: string } | undefined;
  try {
    const connection = await connectMcp(request.server, request.sdk !== undefined ? { sdk: request.sdk } : {});
    try {
      server = connection.server;
      tools = await listAllTools(connection.client);
    } finally {
      await connection.close();
    }
  } catch (error) {
    return fail([error instanceof Error ? error.message : String(error)]);
  }

  const options: McpImportOptions = {
    ...(request.as !== undefined ? { as: request.as } : {}),
    ...(request.name !== undefined ? { name: request.name } : {}),
    ...(request.prefix !== undefined ? { prefix: request.prefix } : {}),
    ...(request.description !== undefined ? { description: request.description } : {}),
  };
  if (request.check === true) {
    // Rebuild from the saved file's own record so the comparison uses the options of the import.
    const built = buildMcpImport(tools, saved, options, server, display);
    if (built.text === undefined) return fail([...built.problems], { notes: built.notes, record: built.record });
    const before = readRecords(parseDocument(saved!)).find((r) => r.name === built.record.name);
    if (before === undefined) {
      return fail([`${display} has no import of "${built.record.name}" (no "# ${RECORD_PREFIX}…" header line for it); pass --name, or import it first.`]);
    }
    const found = checkImport(saved!, built.text, before, built.record);
    return { ok: found.drift.length === 0 && found.rewrites === undefined, out: display, record: built.record, notes: built.notes, problems: [], written: false, ...found };
  }

  const built = buildMcpImport(tools, saved, options, server, display);
  if (built.text === undefined) return fail([...built.problems], { notes: built.notes, record: built.record });
  if (built.text === saved) return { ok: true, out: display, record: built.record, notes: built.notes, problems: [], drift: [], written: false };
  // Atomic: a temporary file next to the spec, renamed over it; a failed step, the cleanup too, is the user's to fix.
  const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(temp, `${style.bom ? '\uFEFF' : ''}${style.crlf ? built.text.replace(/\n/g, '\r\n') : built.text}`, 'utf8');
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true }).catch(() => undefined);
    return fail([`cannot write ${display} (${errorCode(error)}).`]);
  }
  return { ok: true, out: display, record: built.record, notes: built.notes, problems: [], drift: [], written: true };
}
