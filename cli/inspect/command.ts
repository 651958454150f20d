/**
 * The `toolroute inspect` command: the report as terminal tables (default),
 * JSON (`--json`) or an HTML page (`--html <file>`, written atomically).
 */
import { rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { formatProblem } from '../../generator/problems.js';
import { errorCode } from '../../generator/load/common.js';
import { renderInspectHtml } from './html.js';
import { inspectSpec } from './measure.js';
import { formatInspectText } from './text.js';
import { TOOLKIT_LOADING_STRATEGIES, type ToolkitLoadingStrategy } from '../../runtime/toolkit-loading.js';

export interface InspectCommandIO {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly cwd: string;
}

export interface InspectCommandOptions {
  readonly json?: boolean;
  readonly html?: string;
  /** The strategy to measure (the router's `toolkitLoading` option; checked here); default: the spec's. */
  readonly toolkitLoading?: string;
}

/**
 * Runs `toolroute inspect <spec>`; returns the exit code (0, 1 for spec problems / an unwritable file, 2 for an unknown strategy).
 *
 * @example
 * await inspectCommand('tools.spec.yaml', { html: 'inspect.html' }, io);
 */
export async function inspectCommand(spec: string, options: InspectCommandOptions, io: InspectCommandIO): Promise<number> {
  const strategy = options.toolkitLoading;
  if (strategy !== undefined && !(TOOLKIT_LOADING_STRATEGIES as readonly string[]).includes(strategy)) {
    io.stderr(`toolroute: --toolkit-loading must be one of ${TOOLKIT_LOADING_STRATEGIES.join(', ')}.\n`);
    return 2;
  }
  const result = await inspectSpec(spec, { cwd: io.cwd, ...(strategy === undefined ? {} : { toolkitLoading: strategy as ToolkitLoadingStrategy }) });
  if (!result.ok) {
    const n = result.problems.length;
    io.stderr(`${result.problems.map(formatProblem).join('\n')}\n\ntoolroute: ${n} problem${n === 1 ? '' : 's'}; nothing to inspect.\n`);
    return 1;
  }
  if (options.html !== undefined) {
    const file = path.resolve(io.cwd, options.html);
    const temp = `${file}.${process.pid}.tmp`;
    try {
      // Whole or nothing: a reader never sees half a page.
      await writeFile(temp, renderInspectHtml(result.report));
      await rename(temp, file);
    } catch (err) {
      // The cleanup's own error (a folder on the path that is a file, a name too long) says nothing more.
      await rm(temp, { force: true }).catch(() => undefined);
      // The error's code, not its message: the message names absolute paths.
      io.stderr(`toolroute: cannot write ${options.html} (${errorCode(err)}).\n`);
      return 1;
    }
  }
  if (options.json === true) io.stdout(`${JSON.stringify(result.report, null, 2)}\n`);
  else if (options.html === undefined) io.stdout(formatInspectText(result.report));
  else io.stdout(`toolroute: wrote ${options.html} (${result.report.targets.length} targets).\n`);
  return 0;
}
