/**
 * `extends:` in an edition file: the file is its base (a built-in edition or another edition file)
 * with the file's own fields laid over it, so that a user copying `sts2015` writes only what
 * differs. The merge is on the plain values, before the edition is decoded (the merged edition is
 * then checked as a whole, like any edition file):
 *
 * - an object is merged key by key, recursively (`scale: { max: 4 }` keeps the base's `min`);
 * - a key set to `null` removes the base's (`data: null`: no downloads);
 * - `datasets` is merged **by name**: an entry naming a base dataset is merged into it (in the
 *   base's order), an entry `{ name, remove: true }` drops it, a new name is added after the base's;
 * - every other list (`ranking`, `runAliases`, `published.tables`, ...) and every other value is
 *   replaced whole.
 *
 * Why datasets by name: a dataset is the unit an edition is changed by (another gold file, its
 * pairs, one left out), and writing the whole list to change one entry is the copy `extends` is
 * there to avoid. Rankings are few and each one's fields depend on one another, so a ranking is
 * written whole.
 */

type Json = { [key: string]: unknown }

const isObject = (x: unknown): x is Json => typeof x === "object" && x !== null && !Array.isArray(x)

/** The merged edition, or a problem in the extending file's own fields (with the field's path). */
export type Merged = { readonly _tag: "ok"; readonly value: Json } | { readonly _tag: "problem"; readonly field: string; readonly reason: string }

const problem = (field: string, reason: string): Merged => ({ _tag: "problem", field, reason })

const mergeValue = (base: unknown, over: unknown): unknown => (isObject(base) && isObject(over) ? mergeObjects(base, over) : over)

const mergeObjects = (base: Json, over: Json): Json => {
  const out: Json = { ...base }
  for (const [key, value] of Object.entries(over)) {
    if (value === null) delete out[key]
    else out[key] = key in base ? mergeValue(base[key], value) : value
  }
  return out
}

const mergeDatasets = (base: ReadonlyArray<unknown>, over: ReadonlyArray<unknown>): Merged => {
  const out: Array<unknown> = [...base]
  const indexOf = (name: unknown) => out.findIndex((d) => isObject(d) && d.name === name)
  for (const [i, entry] of over.entries()) {
    if (!isObject(entry) || typeof entry.name !== "string") {
      return problem(`datasets[${i}].name`, "a dataset of an edition that extends another names the dataset it adds or changes (datasets are merged by name)")
    }
    const at = indexOf(entry.name)
    const { remove, ...fields } = entry
    if (remove === true) {
      if (at < 0) return problem(`datasets[${i}].remove`, `the base edition has no dataset "${entry.name}" to remove`)
      out.splice(at, 1)
      continue
    }
    if (remove !== undefined) return problem(`datasets[${i}].remove`, "expected true (drop the base's dataset of this name)")
    if (at < 0) out.push(fields)
    else out[at] = mergeObjects(out[at] as Json, fields)
  }
  return { _tag: "ok", value: { datasets: out } }
}

/** `over` laid over `base` by the rules above (`over`'s own `extends` left out). */
export const mergeEdition = (base: Json, over: Json): Merged => {
  const { extends: _, datasets, ...rest } = over
  const merged = mergeObjects(base, rest)
  if (datasets === undefined) return { _tag: "ok", value: merged }
  if (datasets === null) return problem("datasets", "an edition has datasets: they cannot all be removed")
  if (!Array.isArray(datasets)) return problem("datasets", "expected a list of datasets, merged by name into the base's")
  const ds = mergeDatasets(Array.isArray(base.datasets) ? base.datasets : [], datasets)
  return ds._tag === "ok" ? { _tag: "ok", value: { ...merged, datasets: ds.value.datasets } } : ds
}

export { isObject }
