/**
 * The error rule (docs/architecture.md, "Errors"): an expected failure is a Schema.TaggedError;
 * a bare `Error` is thrown only for a defect, and each place that throws one is listed here with
 * why no input can reach it. A new `throw new Error` fails this test until it is decided: made a
 * typed error, or listed with its reason. A `RangeError` or `TypeError` is a public function's
 * documented precondition on its arguments, listed the same way with the check that keeps every
 * user's input from reaching it. No class extends `Error` by hand.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

const root = path.resolve(import.meta.dirname, "../../..")

/** Each file's defect throws: how many, and why no input can reach them. */
const defects: Readonly<Record<string, { readonly count: number; readonly why: string }>> = {
  "packages/formats/src/Csv.ts": { count: 1, why: "an edition file's delimiter is one of the four Declarative's Schema admits; only code passes another" },
  "packages/formats/src/registry/schema.ts": { count: 1, why: "the JSON Schema paths walked are this module's own" },
  "packages/metrics/src/internal/ranks.ts": { count: 1, why: "a big-endian host: Node is little-endian on every platform it supports" },
  "packages/scoring/src/Isolation.ts": { count: 1, why: "serve called outside a scoring worker: the program's own start-up decides" },
  "packages/significance/src/internal/wasm.ts": { count: 2, why: "callers compile first (compiled: null without WebAssembly) and take the generic path" },
  "packages/significance/src/internal/intervals.ts": { count: 1, why: "engine \"wasm\" is forced only by tests and benchmarks (no flag or file sets it); \"auto\" takes the generic path" },
  "packages/significance/src/internal/rankSums.ts": {
    count: 3,
    why: "a constant the kernel writes out; the resamples' walks follow `original`, which found their WebAssembly and memory (intervals.ts takes the generic path otherwise); a Spearman dataset above the walks' exact limit: job.ts resamples it by its metric, never by the walks"
  },
  "packages/tables/src/Presets.ts": { count: 1, why: "every dataset has a ranking (the registry's checks), so scored results always declare a metric" },
  "apps/cli/src/page/browser/shims/process.ts": { count: 1, why: "the check page's code calls only what the shims provide" },
  "apps/cli/src/page/browser/shims/crypto.ts": { count: 2, why: "the check page hashes with sha256, as hex, only" },
  "apps/cli/src/page/browser/shims/zlib.ts": { count: 1, why: "the check page downloads nothing" },
  "apps/cli/src/page/browser/shims/unavailable.ts": { count: 1, why: "the check page's code calls only what the shims provide" },
  "apps/cli/src/page/browser/shims/buffer.ts": { count: 1, why: "the check page decodes UTF-8 only" }
}

/**
 * Each file's argument contracts (`new RangeError` / `new TypeError`): how many, and what stseval
 * checks first so that no file, flag or edition reaches them (reaching one is a defect: exit 70).
 */
const contracts: Readonly<Record<string, { readonly count: number; readonly why: string }>> = {
  "packages/metrics/src/internal/check.ts": { count: 1, why: "equal lengths: scoring aligns run and gold by pair before any metric" },
  "packages/metrics/src/WeightedPearson.ts": { count: 1, why: "equal lengths: aligned pairs; a run's confidences are kept only when every line has one (Sts.parseRun)" },
  "packages/metrics/src/Accuracy.ts": {
    count: 4,
    why: "equal lengths (aligned pairs); a format's labels listed once (Declarative.Spec refuses a repeated one); a label outside them is a run's or gold's issue, never scored"
  },
  "packages/metrics/src/Aggregate.ts": { count: 4, why: "scoring passes one weight (a pair count) per value and one gold per run, aligned" },
  "packages/metrics/src/Metrics.ts": { count: 1, why: "getOrThrow: an edition's metric names are checked at load (registry/checks.ts)" },
  "packages/metrics/src/Spearman.ts": { count: 1, why: "NaN: the parsers refuse a score that is not a finite number (an issue of the run)" },
  "packages/metrics/src/Rescale.ts": { count: 3, why: "rescale is a library function stseval itself never calls; its arguments are the caller's" },
  "packages/baselines/src/Baseline.ts": {
    count: 7,
    why: "the CLI refuses a baseline of the other family and a missing --vectors; Inputs refuses a training file without labelled pairs, several STS Benchmark datasets, and gives SemRel's pair IDs"
  },
  "packages/baselines/src/Entailment.ts": { count: 1, why: "Baseline.sick refuses an empty training distribution first" },
  "packages/baselines/src/Run.ts": { count: 1, why: "the CLI refuses --format glue for an edition that is not STS Benchmark's" },
  "packages/baselines/src/TokenCosine.ts": { count: 1, why: "the caller's translate function returned the wrong count; no command passes one" },
  "packages/formats/src/Glue.ts": { count: 1, why: "the CLI refuses --format glue for scores outside 0-5 (naming the pair) before writing" },
  "packages/formats/src/registry/lookup.ts": { count: 2, why: "a decoded edition names known formats and columns (registry/checks.ts refuses the others)" },
  "packages/scoring/src/Rank.ts": { count: 1, why: "every caller (the engine, the board, the check page) ranks one edition's runs" },
  "apps/cli/src/page/browser/shims/zlib.ts": { count: 1, why: "the shim throws what Node's Buffer does (ERR_BUFFER_TOO_LARGE) for the code it stands in for" }
}

const sources = (): ReadonlyArray<string> =>
  ["packages", "apps"].flatMap((top) =>
    fs
      .readdirSync(path.join(root, top))
      .map((name) => path.join(root, top, name, "src"))
      .filter((src) => fs.existsSync(src))
      .flatMap((src) => (fs.readdirSync(src, { recursive: true, encoding: "utf8" })).filter((f) => f.endsWith(".ts")).map((f) => path.relative(root, path.join(src, f))))
  )

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0

/** Each file's count of `pattern`, where it occurs, against a table's counts. */
const listed = (files: ReadonlyArray<{ readonly file: string; readonly text: string }>, pattern: RegExp, table: Readonly<Record<string, { readonly count: number }>>) =>
  expect(Object.fromEntries(files.map(({ file, text }) => [file, count(text, pattern)] as const).filter(([, n]) => n > 0))).toEqual(
    Object.fromEntries(Object.entries(table).map(([file, d]) => [file, d.count]))
  )

describe("one error idiom (docs/architecture.md, Errors)", () => {
  const files = sources().map((file) => ({ file, text: fs.readFileSync(path.join(root, file), "utf8") }))

  it("a bare Error is thrown only where a defect is listed, as many times as listed", () => listed(files, /throw new Error\(/g, defects))

  it("a RangeError or TypeError is made only where an argument contract is listed, as many times as listed", () => listed(files, /new (Range|Type)Error\(/g, contracts))

  it("no class extends Error by hand: expected failures are Schema.TaggedErrors", () => {
    expect(files.filter(({ text }) => /class \w+ extends (Type|Range)?Error\b/.test(text)).map((f) => f.file)).toEqual([])
  })
})
