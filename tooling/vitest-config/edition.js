// A made-up STS edition, as a user's edition file writes it, for tests of what an edition decides
// (columns, keys, figures) without a built-in edition's size.

/**
 * An STS edition (not yet decoded: give it to `Registry.decodeEditionSync`) with one `sts-gs`
 * dataset per name (gold `STS.gs.<name>.txt`, run `STS.output.<name>.txt`), scores 0-5, a folder
 * per run, ranked by the mean Pearson, a dataset not submitted counted as r = 0; `over` replaces
 * any field.
 *
 * @param {string} id
 * @param {string} title
 * @param {ReadonlyArray<string>} names
 * @param {Record<string, unknown>} [over]
 */
export const stsEdition = (id, title, names, over = {}) => ({
  id,
  title,
  scale: { min: 0, max: 5 },
  submission: "folder",
  datasets: names.map((name) => ({ name, gold: `STS.gs.${name}.txt`, goldFormat: "sts-gs", run: `STS.output.${name}.txt` })),
  runLimit: 3,
  ranking: [{ subtask: "similarity", metric: "pearson", aggregate: "mean" }],
  missingDataset: "zero",
  published: { style: "r3" },
  ...over
})
