/**
 * The `toolroute inspect` command: the report as terminal tables (default),
 * JSON (`--json`) or an HTML page (`--html <file>`, written atomically).
 */
import { open, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { formatProblem } from '../../generator/problems.js';
import { errorCode } from '../../generator/load/common.js';
import { INSPECT_PAGE_MARK, renderInspectHtml } from './html.js';
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
    // A page written before is replaced; any other file (the spec itself, say) is kept.
    if (!(await replaceable(file))) {
      io.stderr(`toolroute: --html ${options.html} names a file that is not a page toolroute inspect wrote; it was left as it is. Pick another name, or remove the file.\n`);
      return 1;
    }
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

/** Whether `file` may be written: it does not exist, or it is a page `inspect --html` wrote (its head carries the mark). */
async function replaceable(file: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch {
    // Missing: a new page. Any other failure is reported by the write itself, with its code.
    return true;
  }
  try {
    const head = Buffer.alloc(1024);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead).toString('utf8').includes(INSPECT_PAGE_MARK);
  } catch {
    // A folder, say: not a page.
    return false;
  } finally {
    await handle.close();
  }
}
