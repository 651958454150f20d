/**
 * The real-world corpus as toolroute specs: the `tools/list` fixtures that
 * `scripts/capture-mcp-corpus.ts` saved, turned into one spec per server, one
 * spec with every server as a namespace, and one with every server as a
 * toolkit. Tool names that two servers share (or that equal a group name)
 * are prefixed with the server's id, the way an application that merges MCP
 * servers has to.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR, SERVERS, type CorpusFixture, type CorpusTool } from '../../scripts/capture-mcp-corpus.js';

export interface CorpusServerData {
  readonly id: string;
  readonly fixture: CorpusFixture;
}

/**
 * Every fixture, in the order of `SERVERS`.
 *
 * @example
 * loadCorpus().map((s) => s.id); // ['filesystem', 'memory', …]
 */
export function loadCorpus(): CorpusServerData[] {
  return SERVERS.map((s) => ({
    id: s.id,
    fixture: JSON.parse(readFileSync(path.join(CORPUS_DIR, `${s.id}.json`), 'utf8')) as CorpusFixture,
  }));
}

/** How a test calls one tool of a built spec. */
export interface CorpusCall {
  readonly server: string;
  /** The name the server listed. */
  readonly original: string;
  /** The tool's name in the spec (the handler's key). */
  readonly tool: string;
  /** Flat: call `tool`; namespace: call `group` with `{ action: tool, args }`; toolkit: load `group`, then call `tool`. */
  readonly via: 'flat' | 'namespace' | 'toolkit';
  readonly group?: string;
  readonly inputSchema: CorpusTool['inputSchema'];
}

export interface BuiltSpec {
  /** The spec, as JSON. */
  readonly spec: Record<string, unknown>;
  readonly calls: readonly CorpusCall[];
}

function description(tool: CorpusTool): string {
  if (typeof tool.description === 'string' && tool.description.trim() !== '') return tool.description;
  return typeof tool['title'] === 'string' && tool['title'].trim() !== '' ? tool['title'] : tool.name;
}

/** A group name from a server id (ids are already lowercase words joined by `-`). */
function groupName(id: string): string {
  return id.replace(/-/g, '_');
}

/**
 * Spec names for every tool: a name listed by two servers, or equal to a group
 * name (ignoring case, as toolkit names are compared), becomes
 * `<server id>_<name>` for every server that lists it; others stay as listed.
 * Prefixed names are cut to the 64 characters every target accepts.
 *
 * @example
 * specNames([a, b]).get('memory\u0000read_graph'); // 'read_graph' (unique) or 'memory_read_graph' (shared)
 */
export function specNames(servers: readonly CorpusServerData[], groups: readonly string[] = []): Map<string, string> {
  const count = new Map<string, number>();
  for (const s of servers) for (const t of s.fixture.tools) count.set(t.name, (count.get(t.name) ?? 0) + 1);
  const groupSet = new Set(groups.map((g) => g.toLowerCase()));
  const out = new Map<string, string>();
  for (const s of servers) {
    for (const t of s.fixture.tools) {
      const clash = (count.get(t.name) ?? 0) > 1 || groupSet.has(t.name.toLowerCase());
      out.set(`${s.id}\u0000${t.name}`, clash ? `${groupName(s.id)}_${t.name}`.slice(0, 64) : t.name);
    }
  }
  return out;
}

function toolEntry(name: string, tool: CorpusTool): Record<string, unknown> {
  return { name, description: description(tool), parameters: tool.inputSchema };
}

/**
 * One server's tools as flat tools.
 *
 * @example
 * serverSpec(loadCorpus()[1]!).spec.tools.length; // 9 (memory)
 */
export function serverSpec(server: CorpusServerData): BuiltSpec {
  const calls = server.fixture.tools.map((t): CorpusCall => ({ server: server.id, original: t.name, tool: t.name, via: 'flat', inputSchema: t.inputSchema }));
  return { spec: { version: 1, tools: server.fixture.tools.map((t) => toolEntry(t.name, t)) }, calls };
}

function groupDescription(server: CorpusServerData): string {
  const { fixture } = server;
  return `Tools of the ${fixture.server.name} MCP server ${fixture.server.version} (${fixture.package.name}@${fixture.package.version})`;
}

/**
 * Every server as one namespace (its tools are the actions) or one toolkit.
 *
 * @example
 * groupedSpec(loadCorpus(), 'namespace').spec.namespaces.length; // one per server
 */
export function groupedSpec(servers: readonly CorpusServerData[], via: 'namespace' | 'toolkit'): BuiltSpec {
  const groups = servers.map((s) => groupName(s.id));
  const names = specNames(servers, groups);
  const calls: CorpusCall[] = [];
  const sections = servers.map((s) => {
    const group = groupName(s.id);
    const tools = s.fixture.tools.map((t) => {
      const name = names.get(`${s.id}\u0000${t.name}`) ?? t.name;
      calls.push({ server: s.id, original: t.name, tool: name, via, group, inputSchema: t.inputSchema });
      return toolEntry(name, t);
    });
    return { name: group, description: groupDescription(s), tools };
  });
  return { spec: { version: 1, [via === 'namespace' ? 'namespaces' : 'toolkits']: sections }, calls };
}
