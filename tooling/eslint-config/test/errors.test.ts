/**
 * The error rule (docs/architecture.md, "Errors"): an expected failure is a Schema.TaggedError;
 * a bare `Error` is thrown only for a defect, and each place that throws one is listed here with
 * why no input can reach it. A new `throw new Error` fails this test until it is decided: made a
 * typed error, or listed with its reason. No class extends `Error` by hand.
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
  "packages/significance/src/internal/wasm.ts": { count: 2, why: "callers compile first (compiled: null without WebAssembly) and fall back to JavaScript" },
  "packages/significance/src/internal/sumsKernel.ts": { count: 1, why: "engine \"wasm\" is forced only by tests and benchmarks (no flag or file sets it); \"auto\" falls back" },
  "packages/significance/src/internal/rankSums.ts": { count: 2, why: "constants the kernel writes out; engine \"wasm\" as in sumsKernel" },
  "packages/significance/src/internal/walkPlan.ts": { count: 1, why: "a Spearman dataset above the walks' exact limit: job.ts resamples it by its metric, never by the walks" },
  "packages/tables/src/Presets.ts": { count: 1, why: "every dataset has a ranking (the registry's checks), so scored results always declare a metric" },
  "apps/cli/src/page/browser/shims/process.ts": { count: 1, why: "the check page's code calls only what the shims provide" },
  "apps/cli/src/page/browser/shims/crypto.ts": { count: 2, why: "the check page hashes with sha256, as hex, only" },
  "apps/cli/src/page/browser/shims/zlib.ts": { count: 1, why: "the check page downloads nothing" },
  "apps/cli/src/page/browser/shims/unavailable.ts": { count: 1, why: "the check page's code calls only what the shims provide" },
  "apps/cli/src/page/browser/shims/buffer.ts": { count: 1, why: "the check page decodes UTF-8 only" }
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

describe("one error idiom (docs/architecture.md, Errors)", () => {
  const files = sources().map((file) => ({ file, text: fs.readFileSync(path.join(root, file), "utf8") }))

  it("a bare Error is thrown only where a defect is listed, as many times as listed", () => {
    const found = Object.fromEntries(files.map(({ file, text }) => [file, count(text, /throw new Error\(/g)] as const).filter(([, n]) => n > 0))
    expect(found).toEqual(Object.fromEntries(Object.entries(defects).map(([file, d]) => [file, d.count])))
  })

  it("no class extends Error by hand: expected failures are Schema.TaggedErrors", () => {
    expect(files.filter(({ text }) => /class \w+ extends (Type|Range)?Error\b/.test(text)).map((f) => f.file)).toEqual([])
  })
})
