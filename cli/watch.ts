/**
 * `toolroute codegen --watch`: regenerate on every change of the spec and of the local files a TS spec
 * imports. Each run is an atomic `generate`, so a bad edit keeps the last good output. Folders are
 * watched, not files: editors that save by renaming are seen.
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { generate, type GenerateOptions, type GenerateResult } from '../generator/index.js';

/** How long a run may go unfinished before the watch says so (`WatchOptions.stallMs`). */
const STALL_MS = 10_000;

export interface WatchOptions {
  /** The spec file, relative to `cwd` (or absolute). */
  readonly spec: string;
  readonly out: string;
  readonly cwd: string;
  readonly runtimeImport?: string;
  /** Prints one run's result (the CLI's codegen report). */
  readonly report: (result: GenerateResult) => void;
  /** Status lines ("watching …"). */
  readonly status: (text: string) => void;
  /** Stops watching; the returned promise then resolves. */
  readonly signal: AbortSignal;
  /** Quiet time after a change before regenerating (editors write in bursts). Default 80 ms. */
  readonly debounceMs?: number;
  /**
   * How long a run may go unfinished before the watch says so, watches the spec's files, and lets the next change
   * start over (a TS spec whose top-level await never settles would hold the watch forever). Default 10 s.
   */
  readonly stallMs?: number;
}

/**
 * Generates, then regenerates on every change until `signal` aborts.
 *
 * @example
 * const ac = new AbortController();
 * process.once('SIGINT', () => ac.abort());
 * await watchCodegen({ spec: 'tools.spec.ts', out: 'generated', cwd: process.cwd(), report, status, signal: ac.signal });
 */
export async function watchCodegen(options: WatchOptions): Promise<void> {
  const { cwd, signal } = options;
  const specAbsolute = path.resolve(cwd, options.spec);
  const generateOptions: GenerateOptions = { out: options.out, cwd, ...(options.runtimeImport === undefined ? {} : { runtimeImport: options.runtimeImport }) };
  const watchers = new Map<string, { readonly w: FSWatcher; readonly direct: boolean }>();
  let files = new Set<string>([specAbsolute]);
  /** Whether the last scan found every module the spec imports. */
  let complete = true;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  /** The newest run's number: an older run that finishes late is given up and does nothing more. */
  let newest = 0;
  /** The newest run, once it has gone `stallMs` unfinished: the next change gives it up instead of queueing behind it. */
  let stall: { readonly run: number; readonly giveUp: AbortController } | undefined;

  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(() => void run(), options.debounceMs ?? 80);
  };
  const onEvent = (dir: string) => (_event: string, name: string | Buffer | null) => {
    // Some platforms give no file name: treat that as a change of any watched file in the folder. While the spec's
    // imports cannot all be found (one not written yet), any file of the folder may be the missing one.
    if (name === null || !complete || files.has(path.join(dir, name.toString()))) schedule();
  };

  const rewatch = (next: Set<string>, found: boolean) => {
    // A run that was still finding dependencies when watching stopped must not
    // open new watchers: they would keep the process alive after Ctrl-C.
    if (signal.aborted) return;
    files = next;
    complete = found;
    // A folder that does not exist (yet, or any more: deleted and made again by a `git checkout`) is waited for from
    // its nearest existing ancestor, whose events on the way to it start a run; that run's rewatch then watches it.
    const wanted = new Map<string, { direct: boolean; handler: (event: string, name: string | Buffer | null) => void }>();
    const awaited = new Map<string, string[]>();
    for (const dir of new Set([...next].map((f) => path.dirname(f)))) {
      let at = dir;
      while (!existsSync(at) && path.dirname(at) !== at) at = path.dirname(at);
      if (at === dir) wanted.set(dir, { direct: true, handler: onEvent(dir) });
      else awaited.set(at, [...(awaited.get(at) ?? []), dir]);
    }
    for (const [at, dirs] of awaited) {
      if (wanted.has(at)) continue; // watched for its own files: a run follows its events anyway when an import is missing
      const toward = (name: string | Buffer | null) => name === null || dirs.some((dir) => `${dir}${path.sep}`.startsWith(`${path.join(at, name.toString())}${path.sep}`));
      wanted.set(at, { direct: false, handler: (_event, name) => void (toward(name) && schedule()) });
    }
    for (const [dir, watching] of watchers) {
      // A watcher whose folder was deleted sees nothing of a folder made in its place (Linux reports no error).
      if (wanted.get(dir)?.direct !== watching.direct || !existsSync(dir)) {
        watching.w.close();
        watchers.delete(dir);
      }
    }
    for (const [dir, { direct, handler }] of wanted) {
      if (watchers.has(dir)) continue;
      try {
        const w = watch(dir, { persistent: true }, handler);
        w.on('error', () => {
          // The folder went away (renamed, deleted): forget it; the next run watches what exists.
          w.close();
          watchers.delete(dir);
        });
        watchers.set(dir, { w, direct });
      } catch {
        // Gone between the check and the watch: the next run looks again.
      }
    }
  };

  const stalled = async (mine: number, giveUp: AbortController): Promise<void> => {
    if (signal.aborted || mine !== newest) return;
    stall = { run: mine, giveUp };
    const seconds = Math.round((options.stallMs ?? STALL_MS) / 100) / 10;
    options.status(`toolroute: codegen has not finished after ${seconds} s. Does the spec's module wait for something that never happens (a top-level await)? Save a change to start over.\n`);
    // A change saved while this run was still expected to finish starts over now, without another save.
    if (again) return void run();
    // A first run never got to watch anything: the fix must be seen.
    const next = await dependencies(specAbsolute, files);
    if (mine === newest) rewatch(next.files, next.complete);
  };

  const run = async (): Promise<void> => {
    if (signal.aborted) return;
    if (running && stall?.run !== newest) {
      again = true;
      return;
    }
    // Nothing runs, or the running one stalled: it is given up (it writes nothing, should it ever finish).
    stall?.giveUp.abort();
    stall = undefined;
    const mine = ++newest;
    running = true;
    try {
      do {
        again = false;
        const giveUp = new AbortController();
        // Unref'd: after Ctrl-C it must not hold the process open.
        const stallTimer = setTimeout(() => void stalled(mine, giveUp), options.stallMs ?? STALL_MS).unref();
        const result = await generate(options.spec, { ...generateOptions, signal: giveUp.signal }).finally(() => clearTimeout(stallTimer));
        if (signal.aborted || mine !== newest) return;
        stall = undefined;
        options.report(result);
        const next = await dependencies(specAbsolute, files);
        if (signal.aborted || mine !== newest) return;
        rewatch(next.files, next.complete);
        const n = files.size;
        options.status(`toolroute: watching ${n === 1 ? path.relative(cwd, specAbsolute) || specAbsolute : `${n} files`} for changes (Ctrl-C to stop).\n`);
      } while (again && !signal.aborted);
    } catch (err) {
      if (mine !== newest) return;
      // A bug in toolroute (a user's mistake is a problem, reported above) must not end the watch: say so, keep watching.
      options.status(`toolroute: internal error (this is a bug in toolroute; please report it with the spec that triggered it):\n${err instanceof Error ? (err.stack ?? err.message) : String(err)}\ntoolroute: still watching.\n`);
      rewatch(files, complete);
    } finally {
      if (mine === newest) running = false;
    }
  };

  await new Promise<void>((resolve) => {
    const stop = () => {
      clearTimeout(timer);
      stall?.giveUp.abort();
      for (const { w } of watchers.values()) w.close();
      watchers.clear();
      resolve();
    };
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
    void run();
  });
}

/**
 * The files a spec depends on: itself, plus (TypeScript) every local module it
 * imports, found by bundling with esbuild without writing or running anything.
 * When the module cannot be bundled (a syntax error mid-edit, an import of a
 * file not written yet), the previous set is kept so the fix is still seen,
 * and `complete` is false.
 *
 * @example
 * await dependencies('/app/tools.spec.ts', new Set()); // { files: Set { '/app/tools.spec.ts', '/app/params.ts' }, complete: true }
 */
export async function dependencies(specAbsolute: string, previous: ReadonlySet<string>): Promise<{ files: Set<string>; complete: boolean }> {
  if (!/\.(c|m)?tsx?$/.test(specAbsolute)) return { files: new Set([specAbsolute]), complete: true };
  try {
    const { build } = await import('esbuild');
    const dir = path.dirname(specAbsolute);
    const result = await build({
      entryPoints: [specAbsolute],
      absWorkingDir: dir,
      bundle: true,
      write: false,
      metafile: true,
      packages: 'external',
      platform: 'node',
      format: 'esm',
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs)
      .filter((f) => !f.includes(':')) // esbuild namespaces such as `data:` are not files
      .map((f) => path.resolve(dir, f));
    return { files: new Set([specAbsolute, ...inputs]), complete: true };
  } catch {
    return { files: new Set([specAbsolute, ...previous]), complete: false };
  }
}
