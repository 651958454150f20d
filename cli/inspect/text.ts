/**
 * `toolroute inspect` as terminal tables: one section per target with the
 * tools array and directory before and after each toolkit load, the same
 * numbers per namespace / toolkit / flat tools, and the largest entries named.
 */
import type { TokenMethod } from './tokens.js';
import type { GroupReport, InspectReport, ItemReport, TargetReport } from './measure.js';

/**
 * The report as plain text (no colours, so it pipes cleanly).
 *
 * @example
 * process.stdout.write(formatInspectText(report));
 */
export function formatInspectText(report: InspectReport): string {
  const out: string[] = [];
  const c = report.counts;
  out.push(`toolroute inspect: ${printable(report.spec)} (${plural(c.tools, 'tool')}, ${plural(c.namespaces, 'namespace')}, ${plural(c.toolkits, 'toolkit')})`);
  out.push(tokenLegend(report));
  out.push('Bytes: UTF-8 bytes of the JSON the SDK sends (tools) and of the directory XML appended to the system prompt;');
  out.push('request: the whole request, with a one-line user turn and the load_toolkit calls and results so far.');
  for (const t of report.targets) out.push('', ...targetSection(t));
  return `${out.join('\n')}\n`;
}

/** One sentence on how tokens were counted, per target. */
export function tokenLegend(report: InspectReport): string {
  const exact = report.targets.filter((t) => t.tokens === 'o200k').map((t) => t.target);
  const estimated = (method: TokenMethod) => report.targets.filter((t) => t.tokens === method).map((t) => t.target);
  const parts = [`Tokens: ${report.tokenizer}`];
  if (exact.length > 0) parts.push(`exact o200k counts of the JSON text for ${exact.join(', ')}`);
  const o200k = estimated('o200k-estimate');
  if (o200k.length > 0) parts.push(`"≈" marks o200k counts used as estimates for ${o200k.join(', ')} (no tokenizer published as a package)`);
  const bytes = estimated('bytes-estimate');
  if (bytes.length > 0) parts.push(`"≈" marks estimates for ${bytes.join(', ')} (gpt-tokenizer is not installed)`);
  return `${parts.join('; ')}.`;
}

/**
 * The toolkit-loading strategy of a target's section: its name, and what it is on that target when that differs.
 *
 * @example
 * strategyLabel({ name: 'native', mode: 'deferred' }); // 'native, deferred here'
 * strategyLabel({ name: 'append', mode: 'append' });   // 'append'
 */
export function strategyLabel(strategy: TargetReport['strategy']): string {
  return strategy.name === strategy.mode ? strategy.name : `${strategy.name}, ${strategy.mode} here`;
}

/** The header of a token column: `tokens` when exact, `≈tokens` when estimated. */
export function tokenHeader(method: TokenMethod): string {
  return method === 'o200k' ? 'tokens' : '≈tokens';
}

function targetSection(t: TargetReport): string[] {
  const tok = tokenHeader(t.tokens);
  const lines = [`== ${t.target} (toolkit loading: ${strategyLabel(t.strategy)}; ${t.tokens === 'o200k' ? 'o200k tokens' : 'tokens estimated'}) ==`];
  lines.push(
    ...table(
      1,
      ['state', 'tools', 'tools bytes', tok, 'directory bytes', tok, 'total bytes', tok, 'deferred', 'request bytes'],
      t.states.map((s, i) => [
        i === 0 ? s.label : `+ ${printable(s.label)}`,
        num(s.tools.count),
        num(s.tools.bytes),
        num(s.tools.tokens),
        num(s.directory.bytes),
        num(s.directory.tokens),
        num(s.total.bytes),
        num(s.total.tokens),
        s.deferred.count === 0 ? '-' : `${s.deferred.count} (${num(s.deferred.bytes)} B)`,
        num(s.request.bytes),
      ]),
    ),
  );
  lines.push(...offeredLines(t));
  lines.push('');
  lines.push(
    ...table(
      2,
      ['group', 'kind', 'tools', 'bytes', tok, 'directory bytes', 'sent'],
      t.groups.map((g) => [
        printable(g.name),
        g.kind,
        num(g.tools),
        num(g.bytes),
        num(g.tokens),
        g.kind === 'toolkit' ? num(g.directory.bytes) : '-',
        sentText(g),
      ]),
    ),
  );
  lines.push('');
  lines.push(`largest: ${t.largest.map((i) => itemText(i)).join(', ')}`);
  if (t.notOffered.length > 0) {
    lines.push(`not offered by default (callable flat tools; pass them as compile's \`tools\`): ${t.notOffered.map((i) => itemText(i)).join(', ')}`);
  }
  return lines;
}

/**
 * The tools each state offers: all of them initially, then what each load adds.
 *
 * @example
 * offeredLines(target); // ['offered: file_ops, terminal, load_toolkit', '+ load_toolkit Weather adds: get_forecast, …']
 */
export function offeredLines(t: TargetReport): string[] {
  return t.states.map((s, i) => {
    const before = new Set(i === 0 ? [] : (t.states[i - 1]?.toolNames ?? []));
    const added = s.toolNames.filter((n) => !before.has(n)).map(printable);
    return i === 0 ? `offered: ${added.join(', ') || '(none)'}` : `+ ${printable(s.label)} adds: ${added.join(', ') || '(none)'}`;
  });
}

/**
 * When a group's entries are in the tools array (a native strategy may carry a toolkit's tools in load results).
 * @example sentText(group); // 'from the start' | 'after its load' | 'in load results' | 'no'
 */
export function sentText(g: GroupReport): string {
  if (g.initial) return 'from the start';
  if (g.kind !== 'toolkit') return 'no';
  return g.entries > 0 ? 'after its load' : 'in load results';
}

function itemText(i: ItemReport): string {
  return `${printable(i.name)} ${num(i.bytes)} B (${i.kind}${i.group !== null && i.group !== i.name ? ` ${printable(i.group)}` : ''}${i.deferred ? ', deferred' : ''})`;
}

/** The first `textColumns` columns left-aligned, the rest (numbers) right-aligned, two spaces between. */
function table(textColumns: number, header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((h, col) => Math.max(width(h), ...rows.map((r) => width(r[col] ?? ''))));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, col) => {
        const pad = ' '.repeat((widths[col] ?? 0) - width(cell));
        return col < textColumns ? cell + pad : pad + cell;
      })
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

/** Display width: code points (names are escaped to printable text first). */
function width(s: string): number {
  return [...s].length;
}

/** 12345 → `12,345` (fixed, not locale-dependent). */
export function num(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Spec text in a terminal: control characters (and so escape sequences) shown as `\u{…}`. */
export function printable(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (ch) => `\\u{${ch.codePointAt(0)?.toString(16) ?? ''}}`);
}

/** `1 tool`, `2 tools`. */
export function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
