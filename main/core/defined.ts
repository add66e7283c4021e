// Copies only the fields that are set. Optional fields are spelled out (exactOptionalPropertyTypes),
// so a field left undefined must be absent, not present with `undefined`.

/** The fields of `source` named in `keys` whose value is not undefined. */
export function definedFields<T extends object, K extends keyof T>(
  source: T,
  keys: readonly K[],
): { [P in K]?: Exclude<T[P], undefined> } {
  const out: { [P in K]?: Exclude<T[P], undefined> } = {};
  for (const k of keys) {
    const v = source[k];
    if (v !== undefined) out[k] = v as Exclude<T[K], undefined>;
  }
  return out;
}
