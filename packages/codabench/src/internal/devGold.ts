/**
 * @internal The development phase's gold: the edition it is scored with (the test edition without
 * the test split's names), where each dataset's dev gold is, and the refusal of a dev gold that is,
 * or shares pairs with, the test gold.
 */
import { Gold } from "@stseval/formats"
import type { Registry } from "@stseval/formats"
import { Effect, FileSystem, Path } from "effect"

/**
 * The edition the development phase scores with: the test edition without what belongs to the test
 * split: its published pair counts and its test input (`sts-test.csv`, `SICK_test.txt`: the
 * development phase's stseval-task.json must not name them), and a dataset named after the test
 * split (STS-B's `test`, its run `sts-test.output.txt`) named after `dev`, so that no message of the
 * development phase says "dataset test". Only a lone dataset is renamed: its leaderboard keys are
 * its metrics', not its name, and a run of one file may have any name.
 */
const devEdition = (edition: Registry.TaskEdition): Registry.TaskEdition => ({
  ...edition,
  datasets: edition.datasets.map(({ pairs: _pairs, input: _input, ...d }) =>
    edition.datasets.length === 1 ? { ...d, name: devName(d.name) ?? d.name, ...(d.run !== undefined ? { run: devName(d.run) ?? d.run } : {}) } : d
  )
})

/** A gold file's name with `test` as a word part replaced by `dev` (`eng_test_with_labels.csv` -> `eng_dev_with_labels.csv`). */
const devName = (gold: string): string | undefined => {
  const parts = gold.split("/")
  const base = parts.pop()!
  const renamed = base.replace(/(^|[^A-Za-z])test(?=$|[^A-Za-z])/i, (_, before: string) => `${before}dev`)
  return renamed === base ? undefined : [...parts, renamed].join("/")
}

/** The pairs of a gold dataset, by what identifies them: pair IDs, else whole lines that carry the pair (a tab-separated row), else none. */
const pairKeys = (dataset: Gold.GoldDataset, text: string): ReadonlyArray<string> =>
  dataset.pairIds !== undefined ? dataset.pairIds : text.split(/\r?\n/).filter((line) => line.includes("\t"))

/**
 * The development edition for a dev gold, with each dataset's gold where it is in `devGold` (a
 * folder: the gold name with `test` -> `dev` when that file exists, else the gold name; a file: as
 * given), and refused when a dataset's dev gold is a test gold file or shares pairs with its test
 * gold (by pair ID, or by whole row where the gold's rows carry the pair).
 */
export const devGoldEdition = (
  edition: Registry.TaskEdition,
  testGold: string,
  devGold: string
): Effect.Effect<Registry.TaskEdition, string, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const info = yield* fs.stat(devGold).pipe(Effect.mapError(() => `--dev-gold: ${devGold} does not exist`))
    const exists = (p: string) => fs.exists(p).pipe(Effect.orElseSucceed(() => false))
    let dev = devEdition(edition)
    if (info.type === "Directory") {
      const datasets: Array<Registry.DatasetSpec> = []
      for (const d of dev.datasets) {
        // A dataset without a public test gold has no column: its dev gold is not used either.
        const renamed = d.goldNotPublic === undefined ? devName(d.gold) : undefined
        const candidates = [...(renamed !== undefined ? [renamed, path.basename(renamed)] : []), d.gold, path.basename(d.gold)]
        let found: string | undefined
        for (const c of candidates) if (found === undefined && (yield* exists(path.join(devGold, c)))) found = c
        datasets.push(found !== undefined && found !== d.gold ? { ...d, gold: found } : d)
      }
      dev = { ...dev, datasets }
    }
    const [testLoaded, devLoaded] = [yield* Gold.loadGold(edition, testGold), yield* Gold.loadGold(dev, devGold)]
    const text = (file: string) => fs.readFile(file).pipe(Effect.orElseSucceed(() => new Uint8Array()))
    const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.length > 0 && a.every((x, i) => x === b[i])
    const testFiles = yield* Effect.forEach(testLoaded.datasets, (t) => text(t.file).pipe(Effect.map((bytes) => ({ t, bytes }))))
    for (const d of devLoaded.datasets) {
      const bytes = yield* text(d.file)
      const identical = testFiles.find((t) => same(t.bytes, bytes))
      if (identical !== undefined) {
        return yield* Effect.fail(
          `--dev-gold: the development gold of ${d.name} (${d.file}) is the test gold ${identical.t.file}: a development phase would show every test pair's gold; give the development data (e.g. ${devName(edition.datasets.find((x) => x.name === d.name)?.gold ?? "") ?? "the dev split"})`
        )
      }
      const test = testFiles.find((t) => t.t.name === d.name)
      if (test === undefined) continue
      const decode = (b: Uint8Array) => new TextDecoder().decode(b)
      const testKeys = new Set(pairKeys(test.t, decode(test.bytes)))
      const shared = pairKeys(d, decode(bytes)).filter((k) => testKeys.has(k))
      if (shared.length > 0) {
        return yield* Effect.fail(
          `--dev-gold: the development gold of ${d.name} (${d.file}) shares ${shared.length} pair${shared.length === 1 ? "" : "s"} with the test gold (${shared.slice(0, 3).map((k) => JSON.stringify(k.length > 60 ? `${k.slice(0, 57)}...` : k)).join(", ")}${shared.length > 3 ? ", ..." : ""}): a development phase would show their test gold`
        )
      }
    }
    return dev
  })
