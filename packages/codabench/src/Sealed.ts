/**
 * A sealed test phase: reference data that checks every submission as the gold would, and holds
 * no gold.
 *
 * Codabench lets any participant download a task's reference data. `PhaseTaskInstanceSerializer.
 * get_public_datasets` (`src/apps/api/serializers/tasks.py`, codalab/codabench c7dbc756) lists each
 * phase task's `reference_data` with its key (through `PhaseDetailSerializer` of
 * `CompetitionDetailSerializer`, which `CompetitionViewSet.retrieve` returns to every approved
 * participant, and to anyone once the competition is published), and `download(request, key)`
 * (`src/apps/datasets/views.py`) checks no permission: it redirects to the dataset's file. Only
 * the page template hides the link. So the test phase's reference data holds, instead of the gold,
 * its **shape**: each gold file's records (their number, their pair IDs where runs are matched by
 * ID, which records are not annotated, the label set), placeholder values in place of the gold's,
 * the SHA-256 of each gold file and the signature the real gold gives. Runs are validated against
 * that shape by the same engine (`Engine.score` with `goldData`), so a submission with an error
 * fails as it would against the gold, and a valid one is told it was received and will be scored
 * when the phase closes.
 *
 * After the deadline `unseal` writes the reference data with the gold (its hashes checked against
 * the sealed ones; the scoring program checks them again), which the organiser puts in place of the
 * sealed one; see docs/codabench.md for the two ways Codabench then scores the submissions.
 *
 * @since 0.3.0
 */
import { createHash } from "node:crypto"
import { Files, Gold } from "@stseval/formats"
import type { Format, Registry } from "@stseval/formats"
import { Signature } from "@stseval/scoring"
import { Effect, FileSystem, Path, Schema } from "effect"

/**
 * One gold file's shape: what validating a run needs, no gold value. `blank`: the records not
 * annotated (a blank STS 2015/2016 gold line, an empty label); `labels`: the labels a labels column
 * uses.
 *
 * @example
 * ```ts
 * import { Sealed } from "@stseval/codabench"
 *
 * const shape: Sealed.Shape = { file: "STS.gs.track5.en-en.txt", datasets: ["track5.en-en"], length: 250, columns: { score: { kind: "scores", blank: [] } } }
 * ```
 * @since 0.3.0
 */
export const Shape = Schema.Struct({
  file: Schema.String,
  datasets: Schema.Array(Schema.String).annotate({ description: "the edition's datasets this gold file serves" }),
  length: Schema.Int.check(Schema.isGreaterThanOrEqualTo(0)),
  ids: Schema.optionalKey(Schema.Array(Schema.String).annotate({ description: "each record's pair ID, when runs are matched by ID" })),
  records: Schema.optionalKey(Schema.Array(Schema.String).annotate({ description: "each record's dataset, when the file holds several" })),
  columns: Schema.Record(
    Schema.String,
    Schema.Struct({
      kind: Schema.Literals(["scores", "labels", "na", "absent"]),
      blank: Schema.optionalKey(Schema.Array(Schema.Int)),
      labels: Schema.optionalKey(Schema.Array(Schema.String))
    })
  )
})
/** @since 0.3.0 */
export type Shape = typeof Shape.Type

/**
 * What a sealed reference data holds in place of the gold (`stseval-task.json`'s `sealed`).
 *
 * @example
 * ```ts
 * import { Sealed } from "@stseval/codabench"
 * import { Schema } from "effect"
 *
 * declare const json: unknown // stseval-task.json's "sealed"
 * const sealed: Sealed.SealedGold = Schema.decodeUnknownSync(Sealed.SealedGold)(json)
 * ```
 * @since 0.3.0
 */
export const SealedGold = Schema.Struct({
  shapes: Schema.Array(Shape),
  signature: Schema.String.annotate({ description: "the signature the gold gives (Signature.make): the scoring output shows it while sealed, and the same after unsealing" })
})
/** @since 0.3.0 */
export type SealedGold = typeof SealedGold.Type

/**
 * The SHA-256 (hex) of each dataset's gold file, by dataset name: what a sealed reference data
 * promises, and what the unsealed one must hold.
 *
 * @example
 * ```ts
 * import { Sealed } from "@stseval/codabench"
 *
 * const hashes: Sealed.GoldHashes = { "track5.en-en": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08" }
 * ```
 * @since 0.3.0
 */
export const GoldHashes = Schema.Record(Schema.String, Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/)))
/** @since 0.3.0 */
export type GoldHashes = typeof GoldHashes.Type

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

/**
 * Each loaded dataset's gold file hashed (the bytes read, as the engine reads them).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Gold, Registry } from "@stseval/formats"
 * import { Sealed } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * const edition = Registry.get("sick2014")!
 * const hashes = await Effect.runPromise(
 *   Gold.loadGold(edition, "SICK_test_annotated.txt").pipe(Effect.flatMap(Sealed.hashes), Effect.provide(NodeServices.layer))
 * )
 * ```
 * @since 0.3.0
 */
export const hashes = (gold: Gold.Gold): Effect.Effect<GoldHashes, string, FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const out: Record<string, string> = {}
    for (const d of gold.datasets) {
      // formats' reader: a regular file, capped as a gold file is
      const bytes = yield* Files.readFile(d.file, { what: `the gold of ${d.name}` }).pipe(Effect.mapError((e) => e.message))
      out[d.name] = sha256(bytes)
    }
    return out
  })

/**
 * Where the hashes found differ from the sealed ones, one line per dataset (empty: the same gold).
 *
 * @example
 * ```ts
 * import { Sealed } from "@stseval/codabench"
 *
 * declare const sealed: Sealed.GoldHashes
 * declare const found: Sealed.GoldHashes
 * const problems = Sealed.differences(sealed, found) // e.g. ["track5.en-en: SHA-256 3f1c9a2e0b7d..., sealed 9f3e51b0c2aa..."]
 * ```
 * @since 0.3.0
 */
export const differences = (sealed: GoldHashes, found: GoldHashes): ReadonlyArray<string> => {
  const names = [...new Set([...Object.keys(sealed), ...Object.keys(found)])].sort()
  return names.flatMap((n) =>
    sealed[n] === found[n]
      ? []
      : [
          sealed[n] === undefined
            ? `${n}: a gold the bundle was not sealed with`
            : found[n] === undefined
              ? `${n}: no gold (sealed ${sealed[n].slice(0, 12)}...)`
              : `${n}: SHA-256 ${found[n].slice(0, 12)}..., sealed ${sealed[n].slice(0, 12)}...`
        ]
  )
}

const shapeOf = (table: Format.GoldTable, file: string, datasets: ReadonlyArray<string>): Shape => ({
  file,
  datasets,
  length: table.length,
  ...(table.ids !== undefined ? { ids: [...table.ids] } : {}),
  ...(table.datasets !== undefined ? { records: [...table.datasets] } : {}),
  columns: Object.fromEntries(
    Object.entries(table.columns).map(([name, c]): [string, Shape["columns"][string]] => {
      if (c.kind === "scores") {
        const blank: Array<number> = []
        c.values.forEach((v, i) => Number.isNaN(v) && blank.push(i))
        return [name, { kind: c.kind, blank }]
      }
      if (c.kind === "labels") {
        const blank: Array<number> = []
        c.values.forEach((v, i) => v === "" && blank.push(i))
        return [name, { kind: c.kind, blank, labels: [...new Set(c.values.filter((v) => v !== ""))].sort() }]
      }
      return [name, { kind: c.kind }]
    })
  )
})

/**
 * The sealed form of a loaded gold: each gold file's shape (once for the datasets it serves, SICK's
 * relatedness and entailment) and the signature the gold gives.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Gold, Registry } from "@stseval/formats"
 * import { Sealed } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * const edition = Registry.get("sts2017")!
 * const gold = await Effect.runPromise(Gold.loadGold(edition, "data/sts2017/gold").pipe(Effect.provide(NodeServices.layer)))
 * const sealed: Sealed.SealedGold = Sealed.seal(edition, gold) // no gold value in it
 * ```
 * @since 0.3.0
 */
export const seal = (edition: Registry.TaskEdition, gold: Gold.Gold): SealedGold => {
  const byFile = new Map<string, { table: Format.GoldTable; spec: string; datasets: Array<string> }>()
  for (const d of gold.datasets) {
    const spec = edition.datasets.find((s) => s.name === d.name)!
    const seen = byFile.get(d.file)
    if (seen !== undefined && seen.table.length === d.table.length) seen.datasets.push(d.name)
    else byFile.set(seen !== undefined ? `${d.file}\u0000${d.name}` : d.file, { table: d.table, spec: spec.gold, datasets: [d.name] })
  }
  return {
    shapes: [...byFile.values()].map((f) => shapeOf(f.table, f.spec, f.datasets)),
    signature: Signature.make(edition, gold).text
  }
}

/**
 * A gold built from the sealed shapes, to validate runs against: each record as in the gold, the
 * records not annotated left so, and placeholder values (varied, so that figures exist) instead of
 * the gold's. Only the verdicts of scoring against it mean anything, never its figures.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Sealed } from "@stseval/codabench"
 *
 * declare const sealed: Sealed.SealedGold
 * const placeholder = Sealed.restore(Registry.get("sts2017")!, sealed) // validates runs; its figures are meaningless
 * ```
 * @since 0.3.0
 */
export const restore = (edition: Registry.TaskEdition, sealed: SealedGold): Gold.Gold =>
  Gold.goldFromTables(
    edition,
    sealed.shapes.flatMap((s) => {
      const columns: Record<string, Format.Column> = {}
      for (const [name, c] of Object.entries(s.columns)) {
        const blank = new Set(c.blank ?? [])
        if (c.kind === "scores") {
          const span = edition.scale.max - edition.scale.min
          columns[name] = { kind: "scores", values: Float64Array.from({ length: s.length }, (_, i) => (blank.has(i) ? Number.NaN : edition.scale.min + ((i * 7919) % 101) / 100 * span)) }
        } else if (c.kind === "labels") {
          const labels = c.labels !== undefined && c.labels.length > 0 ? c.labels : ["_"]
          columns[name] = { kind: "labels", values: Array.from({ length: s.length }, (_, i) => (blank.has(i) ? "" : labels[i % labels.length])) }
        } else columns[name] = { kind: c.kind }
      }
      const table: Format.GoldTable = {
        file: s.file,
        length: s.length,
        ...(s.ids !== undefined ? { ids: s.ids } : {}),
        ...(s.records !== undefined ? { datasets: s.records } : {}),
        columns
      }
      return s.datasets.map((dataset) => ({ dataset, file: s.file, table }))
    })
  )

/**
 * The gold beside a bundle: `<bundle>.gold`, never inside it (the bundle is uploaded whole).
 *
 * @example
 * ```ts
 * import { Sealed } from "@stseval/codabench"
 *
 * Sealed.goldBeside("/tmp/sts2017-codabench") // "/tmp/sts2017-codabench.gold"
 * ```
 * @since 0.3.0
 */
export const goldBeside = (bundle: string): string => `${bundle.replace(/[\\/]+$/, "")}.gold`

/**
 * Copy a loaded gold into `dir` as the edition names it (each dataset's `gold` path), so that
 * `Gold.loadGold(edition, dir)` reads the same files: the gold kept beside a sealed bundle.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Gold, Registry } from "@stseval/formats"
 * import { Sealed } from "@stseval/codabench"
 * import { Effect } from "effect"
 *
 * const edition = Registry.get("sick2014")!
 * await Effect.runPromise(
 *   Gold.loadGold(edition, "SICK_test_annotated.txt").pipe(Effect.flatMap((gold) => Sealed.copyGold(edition, gold, "bundle.gold")), Effect.provide(NodeServices.layer))
 * )
 * ```
 * @since 0.3.0
 */
export const copyGold = (edition: Registry.TaskEdition, gold: Gold.Gold, dir: string): Effect.Effect<void, string, FileSystem.FileSystem | Path.Path> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const done = new Set<string>()
    for (const d of gold.datasets) {
      const name = edition.datasets.find((s) => s.name === d.name)!.gold
      if (done.has(name)) continue
      done.add(name)
      const to = path.join(dir, name)
      yield* fs.makeDirectory(path.dirname(to), { recursive: true }).pipe(Effect.mapError((e) => e.message))
      yield* fs.copyFile(d.file, to).pipe(Effect.mapError((e) => e.message))
    }
  })
