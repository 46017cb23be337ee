// Types of build-manifest.mjs, for its tests.
interface Metafile {
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
}
/** A manifest as forgetBuild hands it to recordBuild; its shape is build-manifest.mjs's own business. */
type Manifest = object;

export const ROOT: string;
export const BUILD_CONFIG_FILES: readonly string[];
export function buildIsCurrent(root?: string): boolean;
export function forgetBuild(root?: string): Manifest | null;
export function recordBuild(metafiles: readonly Metafile[], previous: Manifest | null, root?: string): void;
