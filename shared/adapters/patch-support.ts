/**
 * Patches as the store ports define them: only the fields the port lists may change, and a field left undefined
 * is left as it is. Every adapter applies a patch through these, so none lets a stray field through.
 */

/** The fields of `patch` that are listed in `fields` and not undefined. */
export function patchFields<T extends object, K extends keyof T>(
  patch: Partial<Pick<T, K>>,
  fields: readonly K[],
): Partial<Pick<T, K>> {
  const defined: Partial<Pick<T, K>> = {};
  for (const field of fields) {
    const value = patch[field];
    if (value !== undefined) defined[field] = value;
  }
  return defined;
}

/** `base` with every field of `patch` that is listed in `fields` and not undefined (undefined = leave as is). */
export function applyPatch<T extends object, K extends keyof T>(
  base: T,
  patch: Partial<Pick<T, K>>,
  fields: readonly K[],
): T {
  return { ...base, ...patchFields(patch, fields) };
}
