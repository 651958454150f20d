/**
 * `toolroute inspect --html <file>`: one self-contained page (inline CSS and SVG chart, no scripts,
 * no timestamps: the same spec gives the same page). Every spec string is HTML-escaped.
 */
import type { InspectReport, StateReport, TargetReport } from './measure.js';
import { num, plural, sentText, strategyLabel, tokenHeader, tokenLegend } from './text.js';

/** One segment of a bar: what it is and how many bytes. */
export interface ChartSegment {
  /** Legend key: `directory`, `flat tools`, a namespace or toolkit name, `load_toolkit`, `array syntax`. */
  readonly group: string;
  readonly bytes: number;
}

/** Bars as data (the chart draws exactly these; tests compare them with the report). */
export interface ChartBar {
  readonly target: string;
  readonly state: string;
  readonly segments: readonly ChartSegment[];
  /** Sum of the segments: the state's total bytes. */
  readonly bytes: number;
}

const PALETTE = ['#8c8c8c', '#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

/**
 * The bars of the chart: per target, per state, the bytes by group.
 *
 * @example
 * chartBars(report)[0]; // { target: 'anthropic', state: 'initial', segments: [{ group: 'directory', bytes: 245 }, …], bytes: 2218 }
 */
export function chartBars(report: InspectReport): ChartBar[] {
  return report.targets.flatMap((t) => t.states.map((s) => bar(t, s)));
}

function bar(t: TargetReport, s: StateReport): ChartBar {
  const byName = new Map(t.items.map((i) => [i.name, i]));
  const segments = new Map<string, number>();
  const add = (group: string, bytes: number) => {
    if (bytes > 0) segments.set(group, (segments.get(group) ?? 0) + bytes);
  };
  add('directory', s.directory.bytes);
  let entries = 0;
  for (const name of s.toolNames) {
    const item = byName.get(name);
    if (item === undefined) continue;
    entries += item.bytes;
    add(item.kind === 'flat' ? 'flat tools' : item.kind === 'loader' ? item.name : (item.group ?? item.name), item.bytes);
  }
  // Brackets and commas between entries: small, but the bar adds up to the total.
  add('array syntax', s.tools.bytes - entries);
  const list = [...segments].map(([group, bytes]) => ({ group, bytes }));
  return { target: t.target, state: s.label, segments: list, bytes: list.reduce((n, x) => n + x.bytes, 0) };
}

/** In the head of every page `inspect --html` writes: the only file it overwrites is one that carries it. */
export const INSPECT_PAGE_MARK = '<meta name="generator" content="toolroute inspect">';

/**
 * The whole page.
 *
 * @example
 * writeFileSync('inspect.html', renderInspectHtml(report));
 */
export function renderInspectHtml(report: InspectReport): string {
  const c = report.counts;
  const title = `toolroute inspect: ${report.spec}`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${INSPECT_PAGE_MARK}
<title>${esc(title)}</title>
<style>
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; margin: 24px; color: #1d1d1f; background: #fff; }
h1 { font-size: 20px; margin: 0 0 4px; }
h2 { font-size: 16px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
h3 { font-size: 14px; margin: 16px 0 6px; }
p.note { color: #555; margin: 4px 0; max-width: 980px; }
table { border-collapse: collapse; margin: 4px 0 12px; }
th, td { padding: 3px 10px; border-bottom: 1px solid #eee; text-align: right; white-space: nowrap; }
th:first-child, td:first-child, th.text, td.text { text-align: left; }
th { background: #f6f6f6; font-weight: 600; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 13px; }
svg text { font: 12px system-ui, sans-serif; fill: #1d1d1f; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 16px; margin: 8px 0 0; padding: 0; list-style: none; }
.legend li { display: flex; align-items: center; gap: 6px; }
.swatch { width: 12px; height: 12px; display: inline-block; border-radius: 2px; }
</style>
</head>
<body>
<h1>${esc(title)}</h1>
<p class="note">${esc(`${plural(c.tools, 'tool')}, ${plural(c.namespaces, 'namespace')}, ${plural(c.toolkits, 'toolkit')}. Spec hash ${report.hash.slice(0, 16)}…`)}</p>
<p class="note">${esc(tokenLegend(report))}</p>
<p class="note">Bytes: UTF-8 bytes of the JSON the SDK sends for the tools array, and of the toolkit directory XML appended to the system prompt. Not counted: the provider's own tool-use preamble.</p>
<h2>Where the bytes go</h2>
${chartSvg(report)}
${report.targets.map(targetHtml).join('\n')}
</body>
</html>
`;
}

function chartSvg(report: InspectReport): string {
  const bars = chartBars(report);
  const groups: string[] = [];
  for (const b of bars) for (const s of b.segments) if (!groups.includes(s.group)) groups.push(s.group);
  // `directory` first and grey; the rest in first-appearance order.
  const color = new Map(groups.map((g, i) => [g, PALETTE[i % PALETTE.length] ?? '#999']));
  const labelWidth = 300;
  const barArea = 620;
  const rowHeight = 22;
  const max = Math.max(1, ...bars.map((b) => b.bytes));
  const height = bars.length * rowHeight + 8;
  const rows = bars.map((b, row) => {
    const y = 4 + row * rowHeight;
    let x = labelWidth;
    const rects = b.segments.map((s) => {
      const w = (s.bytes / max) * barArea;
      const rect = `<rect class="seg" data-target="${esc(b.target)}" data-state="${esc(b.state)}" data-group="${esc(s.group)}" data-bytes="${s.bytes}" x="${fix(x)}" y="${y}" width="${fix(w)}" height="${rowHeight - 6}" fill="${color.get(s.group) ?? '#999'}"><title>${esc(`${s.group}: ${num(s.bytes)} bytes`)}</title></rect>`;
      x += w;
      return rect;
    });
    return `<g class="bar" data-target="${esc(b.target)}" data-state="${esc(b.state)}" data-bytes="${b.bytes}">
<text x="${labelWidth - 8}" y="${y + rowHeight - 10}" text-anchor="end"><title>${esc(`${b.target} · ${b.state}`)}</title>${esc(clip(`${b.target} · ${b.state}`, LABEL_CHARS))}</text>
${rects.join('\n')}
<text x="${fix(x + 6)}" y="${y + rowHeight - 10}">${esc(`${num(b.bytes)} B`)}</text>
</g>`;
  });
  const legend = groups.map((g) => `<li data-group="${esc(g)}"><span class="swatch" style="background:${color.get(g) ?? '#999'}"></span>${esc(g)}</li>`).join('\n');
  return `<svg class="chart" role="img" aria-label="Bytes per target and state, by group" width="${labelWidth + barArea + 90}" height="${height}" viewBox="0 0 ${labelWidth + barArea + 90} ${height}" xmlns="http://www.w3.org/2000/svg">
${rows.join('\n')}
</svg>
<ul class="legend">
${legend}
</ul>`;
}

function targetHtml(t: TargetReport): string {
  const tok = esc(tokenHeader(t.tokens));
  const states = t.states
    .map(
      (s, i) =>
        `<tr><td>${esc(i === 0 ? s.label : `+ ${s.label}`)}</td><td>${num(s.tools.count)}</td><td>${num(s.tools.bytes)}</td><td>${num(s.tools.tokens)}</td><td>${num(s.directory.bytes)}</td><td>${num(s.directory.tokens)}</td><td>${num(s.total.bytes)}</td><td>${num(s.total.tokens)}</td><td>${s.deferred.count === 0 ? '-' : esc(`${s.deferred.count} (${num(s.deferred.bytes)} B)`)}</td></tr>`,
    )
    .join('\n');
  const groups = t.groups
    .map(
      (g) =>
        `<tr><td>${esc(g.name)}</td><td class="text">${esc(g.kind)}</td><td>${num(g.tools)}</td><td>${num(g.bytes)}</td><td>${num(g.tokens)}</td><td>${g.kind === 'toolkit' ? num(g.directory.bytes) : '-'}</td><td class="text">${sentText(g)}</td></tr>`,
    )
    .join('\n');
  const largest = [...t.largest]
    .map((i) => `<tr><td>${esc(i.name)}</td><td class="text">${esc(i.kind)}${i.group !== null && i.group !== i.name ? ` <code>${esc(i.group)}</code>` : ''}${i.deferred ? ' (deferred)' : ''}</td><td>${num(i.bytes)}</td><td>${num(i.tokens)}</td></tr>`)
    .join('\n');
  const notOffered =
    t.notOffered.length === 0
      ? ''
      : `<p class="note">Not offered by default (callable flat tools; pass them as compile's <code>tools</code>): ${t.notOffered.map((i) => `<code>${esc(i.name)}</code> ${num(i.bytes)} B`).join(', ')}</p>`;
  return `<section data-target="${esc(t.target)}">
<h2>${esc(t.target)} <small>(toolkit loading: ${esc(strategyLabel(t.strategy))}; ${t.tokens === 'o200k' ? 'o200k tokens' : 'tokens estimated'})</small></h2>
<h3>Tools array and directory, before and after each toolkit load</h3>
<table data-table="states"><thead><tr><th>state</th><th>tools</th><th>tools bytes</th><th>${tok}</th><th>directory bytes</th><th>${tok}</th><th>total bytes</th><th>${tok}</th><th>deferred</th></tr></thead>
<tbody>
${states}
</tbody></table>
<ul class="offered">
${t.states
  .map((s, i) => {
    const before = new Set(i === 0 ? [] : (t.states[i - 1]?.toolNames ?? []));
    const added = s.toolNames.filter((n) => !before.has(n));
    return `<li>${esc(i === 0 ? 'offered' : `+ ${s.label} adds`)}: ${added.map((n) => `<code>${esc(n)}</code>`).join(', ') || '(none)'}</li>`;
  })
  .join('\n')}
</ul>
<h3>Per namespace and toolkit</h3>
<table data-table="groups"><thead><tr><th>group</th><th class="text">kind</th><th>tools</th><th>bytes</th><th>${tok}</th><th>directory bytes</th><th class="text">sent</th></tr></thead>
<tbody>
${groups}
</tbody></table>
<h3>Largest tools</h3>
<table data-table="largest"><thead><tr><th>tool</th><th class="text">kind</th><th>bytes</th><th>${tok}</th></tr></thead>
<tbody>
${largest}
</tbody></table>
${notOffered}
</section>`;
}

/** Bar labels longer than this are cut (the full label is the text's tooltip), so they stay inside the label column. */
const LABEL_CHARS = 44;

function clip(s: string, max: number): string {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('')}…`;
}

/** Two decimals, no trailing zeros: stable across runs and short. */
function fix(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/** HTML text and attribute escape (spec text never becomes markup). */
function esc(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch);
}
