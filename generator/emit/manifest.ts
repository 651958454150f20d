/**
 * `manifest.json`: which files toolroute generated, with their sha256, and from
 * which spec. The writer reads the previous manifest to know which files in
 * the output folder are its own (and may be replaced or removed).
 */
import { createHash } from 'node:crypto';
import { compareText } from './code.js';
import type { EmitContext } from './context.js';
import type { GeneratedFile } from './file.js';

/** The manifest's file name; the writer looks for it. */
export const MANIFEST_FILE = 'manifest.json';

/** The shape of `manifest.json`. */
export interface Manifest {
  readonly generator: 'toolroute';
  readonly version: string;
  readonly formatVersion: 1;
  /** The spec, relative to the output folder (POSIX), so the bytes do not depend on where codegen ran. */
  readonly spec: string;
  /** The spec's content hash (IRSpec.hash). */
  readonly hash: string;
  /** The command that regenerates the folder, run in the output folder. */
  readonly command: string;
  /** Generated file → sha256 (hex) of its bytes; the manifest itself is not listed. */
  readonly files: { readonly [file: string]: string };
}

/**
 * Emits `manifest.json` for the files emitted before it.
 *
 * @example
 * emitManifest(ctx, files)[0].path; // 'manifest.json'
 */
export function emitManifest(ctx: EmitContext, earlier: readonly GeneratedFile[]): GeneratedFile[] {
  const files = [...earlier].sort((a, b) => compareText(a.path, b.path));
  const manifest: Manifest = {
    generator: 'toolroute',
    version: ctx.options.version,
    formatVersion: 1,
    spec: ctx.options.specDisplay,
    hash: ctx.ir.hash,
    command: ctx.command,
    files: Object.fromEntries(files.map((f) => [f.path, sha256(f.content)])),
  };
  return [{ path: MANIFEST_FILE, content: `${JSON.stringify(manifest, null, 2)}\n` }];
}

/**
 * sha256 (hex) of a string's UTF-8 bytes.
 *
 * @example
 * sha256(''); // 'e3b0c442…'
 */
export function sha256(text: string): string {
  // Encoded first: Node hashes a large string's UTF-8 about three times slower than the same bytes as a Buffer.
  return createHash('sha256').update(Buffer.from(text, 'utf8')).digest('hex');
}
