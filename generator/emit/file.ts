/**
 * What an emitter produces: one file of the output folder.
 */

/** The artifacts a generated folder holds; each has one emitter (see `./index.ts`). */
export const ARTIFACT_KINDS = ['types', 'names', 'validators', 'directory', 'spec', 'search', 'index', 'package', 'manifest'] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

/** One generated file: a path relative to the output folder (no folders) and its exact text. */
export interface GeneratedFile {
  readonly path: string;
  readonly content: string;
}
