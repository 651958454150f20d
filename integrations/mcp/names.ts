/**
 * How an MCP tool's name becomes a spec tool name, shared by `toolroute import mcp`
 * (which writes the names) and `mcpHandlers` (which finds each spec tool's server
 * tool again from the live `tools/list`), so the two can never disagree.
 *
 * The MCP SDK is not needed to compute a name: the rules are the runtime's (runtime/contract.ts).
 */

import { PORTABLE_TOOL_NAME, RESERVED_TOOL_NAMES } from '../../runtime/contract.js';
import { fnv1a } from '../../runtime/targets/replay.js';
import type { McpTool } from './types.js';

/** Names the library owns: an imported tool never takes one. */
const RESERVED_NAMES: ReadonlySet<string> = new Set(RESERVED_TOOL_NAMES);

/** Why a name had to change: recorded in the imported spec, never silent. */
export interface NameFix {
  readonly from: string;
  readonly to: string;
  readonly why: string;
}

/**
 * The spec name of MCP tool `mcpName` imported with `prefix`: `prefix + mcpName`
 * when that is a portable name; otherwise every character outside
 * `[A-Za-z0-9_-]` becomes `_`, a leading digit or `-` gets a `_` in front, and a
 * name over 64 characters is cut to 55 plus `_` and 8 hex digits of its hash (so
 * two long names stay distinct). Deterministic: the same input gives the same name.
 *
 * @example
 * specToolName('fs_', 'read_file');     // { name: 'fs_read_file' }
 * specToolName('', 'github.get/issue'); // { name: 'github_get_issue', fix: { …, why: '…' } }
 */
export function specToolName(prefix: string, mcpName: string): { readonly name: string; readonly fix?: NameFix } {
  const wanted = `${prefix}${mcpName}`;
  if (PORTABLE_TOOL_NAME.test(wanted) && !RESERVED_NAMES.has(wanted)) return { name: wanted };
  let name = wanted.replace(/[^A-Za-z0-9_-]/g, '_');
  const whys: string[] = [];
  if (name !== wanted) whys.push('characters outside [A-Za-z0-9_-] became "_"');
  if (!/^[A-Za-z_]/.test(name)) {
    name = `_${name}`;
    whys.push('a name must start with a letter or "_"');
  }
  if (RESERVED_NAMES.has(name)) {
    name = `mcp_${name}`;
    whys.push(`"${wanted}" is reserved by toolroute`);
  }
  if (name.length > 64) {
    name = `${name.slice(0, 55)}_${fnv1a(wanted)}`;
    whys.push('a name has at most 64 characters');
  }
  return { name, fix: { from: mcpName, to: name, why: whys.join('; ') } };
}

/**
 * The spec names of a server's tools, in its `tools/list` order, as `toolroute import mcp` writes them: each by
 * {@link specToolName}. A name the server wrote that is already portable is kept as it is; a name that had to change
 * and meets one taken is numbered (`_2`, `_3`, …), so a tool's name never depends on which tool the server lists
 * first. A tool that only runs as an MCP task (`execution.taskSupport: "required"`) gets no name (`undefined`): a plain
 * `tools/call` cannot start it. One rule for the importer and `mcpHandlers`, which finds each spec tool's server tool
 * again.
 *
 * @example
 * specToolNames('', [{ name: 'a.b' }, { name: 'a_b' }]).map((n) => n?.name); // ['a_b_2', 'a_b']
 */
export function specToolNames(prefix: string, tools: readonly Pick<McpTool, 'name' | 'execution'>[]): ({ readonly name: string; readonly fix?: NameFix } | undefined)[] {
  const named = tools.map((tool) => (tool.execution?.taskSupport === 'required' ? undefined : specToolName(prefix, tool.name)));
  // First the names kept as written (the first of a repeated one), then the changed ones, numbered around them.
  const taken = new Set<string>();
  const kept = new Set<number>();
  for (const [i, n] of named.entries()) {
    if (n === undefined || n.fix !== undefined || taken.has(n.name)) continue;
    taken.add(n.name);
    kept.add(i);
  }
  return named.map((n, i) => {
    if (n === undefined || kept.has(i)) return n;
    let { name, fix } = n;
    if (taken.has(name)) {
      let k = 2;
      while (taken.has(`${name.slice(0, 60)}_${k}`)) k++;
      const to = `${name.slice(0, 60)}_${k}`;
      fix = { from: tools[i]!.name, to, why: `${fix ? `${fix.why}; ` : ''}"${name}" was already taken by another tool of this server` };
      name = to;
    }
    taken.add(name);
    return fix === undefined ? { name } : { name, fix };
  });
}

/**
 * A group (namespace) name from a server's name: portable, lowercase words
 * joined by `_` (`secure-filesystem-server` → `secure_filesystem_server`).
 *
 * @example
 * groupNameOf('mcp-servers/everything'); // 'mcp_servers_everything'
 */
export function groupNameOf(serverName: string): string {
  let name = serverName.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '');
  if (name === '') name = 'mcp';
  if (!/^[a-z_]/.test(name)) name = `_${name}`;
  return name.slice(0, 64);
}
