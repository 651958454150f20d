/**
 * Each integration is its own entry point, and an application that uses none
 * of them loads none of their SDKs: the runtime, the root entry and the
 * generator (all but `import mcp`, loaded on demand by the CLI) never import
 * the MCP SDK or `ai`, and neither integration imports the other's SDK.
 * toolroute/mcp loads its SDK line only on first use, with `import()`.
 * Checked on the import graph of the sources, following relative imports.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { REPO } from '../generator/helpers.js';

/** Every bare specifier reachable from `entry` through static relative imports. */
function reachablePackages(entry: string): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const src = readFileSync(file, 'utf8');
    // Static imports and re-exports only: `await import()` is what keeps an SDK optional.
    for (const m of src.matchAll(/^(?:import|export)\s[^;]*?from\s+'([^']+)'/gms)) {
      const spec = m[1]!;
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')));
      else packages.add(spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0]!);
    }
  };
  visit(path.join(REPO, entry));
  return packages;
}

const MCP_PACKAGES = ['@modelcontextprotocol/sdk', '@modelcontextprotocol/client', '@modelcontextprotocol/server', '@modelcontextprotocol/core'];
const hasMcp = (packages: Set<string>) => MCP_PACKAGES.some((p) => packages.has(p));

it('the runtime, the root entry and the generator load neither SDK', () => {
  for (const entry of ['index.ts', 'runtime/index.ts', 'generator/index.ts', 'cli/main.ts']) {
    const packages = reachablePackages(entry);
    expect(hasMcp(packages), entry).toBe(false);
    expect(packages.has('ai'), entry).toBe(false);
    expect(packages.has('@openai/agents'), entry).toBe(false);
  }
  // The CLI reaches the importer only through a dynamic import.
  expect(readFileSync(path.join(REPO, 'cli/main.ts'), 'utf8')).toContain("await import('./import.js')");
  expect(readFileSync(path.join(REPO, 'generator/import/mcp.ts'), 'utf8')).toContain("from '../../integrations/mcp/connect.js'");
});

it('toolroute/mcp loads the MCP SDK (either line, on first use) and not the AI SDK; toolroute/ai-sdk the reverse', () => {
  const mcp = reachablePackages('integrations/mcp/index.ts');
  expect(hasMcp(mcp)).toBe(false);
  const adapter = readFileSync(path.join(REPO, 'integrations/mcp/sdk.ts'), 'utf8');
  for (const p of ['@modelcontextprotocol/sdk', '@modelcontextprotocol/client', '@modelcontextprotocol/server']) expect(adapter).toContain(`'${p}`);
  expect(adapter).toContain('import(');
  expect(mcp.has('ai')).toBe(false);
  const aiSdk = reachablePackages('integrations/ai-sdk/index.ts');
  expect(aiSdk.has('ai')).toBe(true);
  expect(hasMcp(aiSdk)).toBe(false);
  expect(mcp.has('@openai/agents') || aiSdk.has('@openai/agents')).toBe(false);
});

it('toolroute/openai-agents loads the Agents SDK and neither of the other SDKs', () => {
  const agents = reachablePackages('integrations/openai-agents/index.ts');
  expect(agents.has('@openai/agents')).toBe(true);
  expect(agents.has('ai') || hasMcp(agents)).toBe(false);
});
