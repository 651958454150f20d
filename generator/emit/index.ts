/**
 * IR → generated files: one emitter per artifact kind, from a table (a new kind is a compile error
 * until it has one); the manifest comes last because it hashes the others.
 */
import type { IRSpec } from '../ir.js';
import { buildEmitContext, type EmitContext, type EmitOptions } from './context.js';
import { emitDirectory } from './directory.js';
import { ARTIFACT_KINDS, type ArtifactKind, type GeneratedFile } from './file.js';
import { emitIndex } from './index-file.js';
import { emitManifest } from './manifest.js';
import { emitNames } from './names.js';
import { emitPackageJson } from './package-json.js';
import { emitSearchLoader } from './search.js';
import { emitSpec } from './spec.js';
import { emitTypes } from './types.js';
import { emitValidators } from './validators.js';

export { ARTIFACT_KINDS, type ArtifactKind, type GeneratedFile } from './file.js';
export { DEFAULT_RUNTIME_IMPORT, regenerateCommand, type EmitOptions } from './context.js';

/** An emitter: the emit context (and the files emitted before it) → its files. */
export type Emitter = (ctx: EmitContext, earlier: readonly GeneratedFile[]) => readonly GeneratedFile[] | Promise<readonly GeneratedFile[]>;

const EMITTERS = {
  types: emitTypes,
  names: emitNames,
  validators: emitValidators,
  directory: emitDirectory,
  spec: emitSpec,
  search: emitSearchLoader,
  index: emitIndex,
  package: emitPackageJson,
  manifest: emitManifest,
} satisfies Record<ArtifactKind, Emitter>;

/**
 * Emits every file of the output folder, in a fixed order, each with LF line
 * endings and a trailing newline. Pure apart from time: no file system access.
 *
 * @example
 * const files = await emit(ir, { specDisplay: 'tools.spec.yaml', outDisplay: 'generated',
 *   runtimeImport: 'toolroute/runtime', version: '0.1.0' });
 * files.map((f) => f.path); // ['types.gen.ts', 'names.gen.ts', 'validators.gen.ts', …, 'manifest.json']
 */
export async function emit(ir: IRSpec, options: EmitOptions): Promise<GeneratedFile[]> {
  const ctx = buildEmitContext(ir, options);
  const files: GeneratedFile[] = [];
  for (const kind of ARTIFACT_KINDS) {
    const emitter: Emitter = EMITTERS[kind];
    files.push(...(await emitter(ctx, files)));
  }
  return files;
}
