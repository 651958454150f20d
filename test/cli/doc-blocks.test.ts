/**
 * Every TypeScript code block of the user and contributor documentation
 * (README.md, docs/*.md, ARCHITECTURE.md, schema/README.md) compiles against
 * the built package, as a user would paste it; every YAML block that is a
 * whole spec (it has `version:`) generates without problems.
 *
 * The blocks are extracted here, written as modules of a consumer app (built
 * package in its node_modules, `"type": "module"`, strict NodeNext), and
 * type-checked with tsc. The README's own spec (the first YAML block of
 * README.md) is generated into the app's `generated/`, so every page's
 * handler and router blocks are checked against the spec the README shows.
 *
 * A block may be marked on the line before its fence:
 * - `<!-- doc-test: continues … -->`: it goes on from the previous TypeScript
 *   block of the same file (that block's code, then this one in a nested
 *   `{ }` scope, so it may redeclare a name). A README tells one story; this
 *   keeps each snippet short without making it a fragment the test skips.
 * - `<!-- doc-test: skip <reason> -->`: not compiled. No block needs it today;
 *   the test fails if a skip gives no reason.
 *
 * Values a page assumes you have (your SDK clients, a model id, your system
 * prompt and history, and a router over the README's spec with its handlers)
 * are declared once, in GLOBALS below; a block that declares its own shadows them.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from '../../generator/index.js';
import { consumerTsconfig, node, REPO, removeDir, stagePackage, tempDir, TSC_RUN, write } from './stage.js';

/** Words that tell how the project was developed: sessions, rounds, issue and defect numbers. */
const HISTORY = /\b(this|last|previous|earlier|next) (session|round)\b|\bsession \d+|\b(issue|defect)s? \d+|\bthe issue's\b/gi;

const DOCS: readonly string[] = [
  'README.md',
  'ARCHITECTURE.md',
  'schema/README.md',
  ...readdirSync(path.join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

/**
 * What the pages' snippets use without defining: the reader's own SDK clients
 * and conversation, and the README's router (its spec, its `AppContext`).
 */
const GLOBALS = `declare const anthropic: import('@anthropic-ai/sdk').default;
declare const openai: import('openai').default;
declare const ai: import('@google/genai').GoogleGenAI;
declare const model: string;
declare const system: string;
declare const messages: import('toolroute/runtime').NeutralMessage[];
interface AppContext { readonly userId: string }
declare const generated: typeof import('./generated/index.js');
declare const handlers: import('./generated/index.js').Handlers<AppContext>;
declare const router: import('toolroute/runtime').ToolRouter<import('./generated/index.js').Registry, AppContext>;
`;

interface Block {
  readonly doc: string;
  /** 1-based line of the opening fence. */
  readonly line: number;
  readonly lang: string;
  readonly code: string;
  readonly mark: { readonly kind: 'continues' | 'skip'; readonly reason: string } | null;
}

/** Fenced code blocks of a Markdown file, with the doc-test mark on the line before each. */
function blocksOf(doc: string): Block[] {
  const lines = readFileSync(path.join(REPO, doc), 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w+)\s*$/.exec(lines[i] ?? '');
    if (open === null) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i] ?? ''); i++) body.push(lines[i] ?? '');
    const before = /^<!-- doc-test: (continues|skip)\b\s*(.*?)\s*-->$/.exec(lines[start - 1] ?? '');
    blocks.push({
      doc,
      line: start + 1,
      lang: open[1] ?? '',
      code: `${body.join('\n')}\n`,
      mark: before === null ? null : { kind: before[1] as 'continues' | 'skip', reason: before[2] ?? '' },
    });
  }
  return blocks;
}

const ALL = DOCS.flatMap(blocksOf);
const TS = ALL.filter((b) => b.lang === 'ts' || b.lang === 'typescript');
const SPECS = ALL.filter((b) => (b.lang === 'yaml' || b.lang === 'yml') && /^version:/m.test(b.code));

let app = '';
beforeAll(async () => {
  app = tempDir('doc-blocks-');
  stagePackage(app);
  write(path.join(app, 'package.json'), `${JSON.stringify({ name: 'readme-app', private: true, type: 'module' })}\n`);
  const readmeSpec = SPECS.find((b) => b.doc === 'README.md');
  if (readmeSpec === undefined) throw new Error('README.md has no YAML spec block');
  write(path.join(app, 'tools.spec.yaml'), readmeSpec.code);
  const r = await generate('tools.spec.yaml', { out: 'generated', cwd: app });
  if (!r.ok) throw new Error(`the README spec does not generate: ${JSON.stringify(r.problems)}`);
}, 300_000);
afterAll(() => {
  if (app !== '') removeDir(app);
});

describe('code blocks of the docs', () => {
  it('finds the blocks, and every mark is one the test understands', () => {
    expect(TS.length).toBeGreaterThanOrEqual(15);
    expect(SPECS.length).toBeGreaterThanOrEqual(2);
    // Every page the README links to is checked.
    for (const doc of ['docs/spec.md', 'docs/router.md', 'docs/providers.md', 'docs/mcp.md', 'docs/ai-sdk.md', 'docs/cli.md', 'docs/performance.md', 'docs/design.md']) {
      expect(DOCS, doc).toContain(doc);
    }
    for (const b of ALL) {
      if (b.mark?.kind === 'skip') expect(b.mark.reason, `${b.doc}:${b.line} skip without a reason`).not.toBe('');
      if (b.mark !== null) expect(['ts', 'typescript'], `${b.doc}:${b.line}: doc-test marks apply to TypeScript blocks`).toContain(b.lang);
    }
    // A continuation needs something to continue.
    for (const doc of DOCS) expect(TS.filter((b) => b.doc === doc)[0]?.mark?.kind, doc).not.toBe('continues');
  });

  it.each([...DOCS, 'CHANGELOG.md', 'bench/README.md'])('%s links only to files inside the repository, and they exist', (doc) => {
    // Code blocks hold commands and code, not links.
    const text = readFileSync(path.join(REPO, doc), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    const targets = [...text.matchAll(/\]\(([^)\s]+)\)|^\[[^\]]+\]:\s*(\S+)/gm)].map((m) => m[1] ?? m[2] ?? '');
    for (const target of targets) {
      if (/^(https?:|mailto:)/.test(target)) continue;
      const file = target.split('#')[0] ?? '';
      if (file === '') continue;
      const resolved = path.resolve(REPO, path.dirname(doc), file);
      expect(path.relative(REPO, resolved).startsWith('..'), `${doc}: ${target} points outside the repository`).toBe(false);
      expect(existsSync(resolved), `${doc}: ${target} does not exist`).toBe(true);
    }
  });

  it.each([...DOCS, 'bench/README.md'])('%s describes the project, not how it was developed (history goes in CHANGELOG.md)', (doc) => {
    const text = readFileSync(path.join(REPO, doc), 'utf8');
    expect([...text.matchAll(HISTORY)].map((m) => m[0]), doc).toEqual([]);
  });

  it('no source, script, bench or test file tells how the project was developed, in comments or test names', () => {
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(path.join(REPO, dir), { withFileTypes: true })) {
        const rel = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!['node_modules', '.tmp', 'fixtures', 'generated'].includes(entry.name)) walk(rel);
        } else if (/\.(ts|mts|mjs|js)$/.test(entry.name) && !entry.name.endsWith('.gen.ts')) {
          for (const m of readFileSync(path.join(REPO, rel), 'utf8').matchAll(HISTORY)) found.push(`${rel}: ${m[0]}`);
        }
      }
    };
    for (const dir of ['runtime', 'generator', 'cli', 'search', 'schema', 'integrations', 'scripts', 'bench', 'test', 'examples']) walk(dir);
    expect(found).toEqual([]);
  });

  it.each(SPECS.map((b) => [`${b.doc}:${b.line}`, b] as const))('YAML spec %s generates without problems', async (_, block) => {
    const dir = path.join(app, 'specs', `${block.doc.replace(/\W/g, '_')}_${block.line}`);
    write(path.join(dir, 'spec.yaml'), block.code);
    const r = await generate('spec.yaml', { out: 'out', cwd: dir, check: false });
    expect(r.problems).toEqual([]);
    expect(r.ok).toBe(true);
  });

  it('every TypeScript block compiles against the built package (tsc, strict, NodeNext)', () => {
    const files: string[] = [];
    const chain = new Map<string, { code: string; depth: number }>();
    for (const b of TS) {
      if (b.mark?.kind === 'skip') continue;
      const prev = chain.get(b.doc);
      let code: string;
      let depth: number;
      if (b.mark?.kind === 'continues') {
        if (prev === undefined) throw new Error(`${b.doc}:${b.line} continues nothing`);
        code = `${prev.code}{ // ${b.doc}:${b.line}\n${b.code}`;
        depth = prev.depth + 1;
      } else {
        code = `// ${b.doc}:${b.line}\n${b.code}`;
        depth = 0;
      }
      chain.set(b.doc, { code, depth });
      const file = `block_${b.doc.replace(/\W/g, '_')}_${b.line}.ts`;
      // Each file is a module (`export {}`) so top-level await and imports are allowed.
      write(path.join(app, file), `${code}${'}\n'.repeat(depth)}export {};\n`);
      files.push(file);
    }
    write(path.join(app, 'globals.d.ts'), GLOBALS);
    write(path.join(app, 'tsconfig.json'), consumerTsconfig(["globals.d.ts", "block_*.ts", "generated"]));
    const tsc = node([...TSC_RUN, '-p', 'tsconfig.json', '--listFiles'], app);
    // Errors name the block file; the file's first comment names the doc and line.
    expect(tsc.stdout.split('\n').filter((l) => /error TS/.test(l)).join('\n')).toBe('');
    expect(tsc.code).toBe(0);
    const listed = tsc.stdout.split('\n').filter(Boolean).map((f) => path.resolve(app, f));
    for (const f of files) expect(listed).toContain(path.join(app, f));
    // Against the built package's declarations, never the repo's sources.
    expect(listed).toContain(path.join(app, 'node_modules/toolroute/dist/runtime/index.d.ts'));
    expect(listed.filter((f) => f.startsWith(path.join(REPO, 'runtime') + path.sep))).toEqual([]);
  }, 300_000);
});
