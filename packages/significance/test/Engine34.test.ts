// Issue 34's rule: with the same draws, every interval bound, p-value and estimate equals the one
// the engines gave before the change to 1e-12 relative, and every count, rank, rank interval and
// signature is identical. The reference (fixtures/engine-before-34.json) was written by
// bench/engine-fixture.ts from the engines before issue 34 (base commit 5665571).
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it, vi } from "vitest"
import { Intervals, TestResult } from "../src/index.js"
import { bootstrapRecord, engineCases, intervalsRecord, permutationRecord, same, sameFigures } from "./engineCases.js"

const before = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "fixtures/engine-before-34.json"), "utf8")) as Record<string, unknown>

describe("the resampling engine gives the figures of the engines before issue 34", () => {
  it.each(engineCases.bootstrap.map((c) => [c.name, c] as const))("bootstrap %s", (name, c) => same(bootstrapRecord(c), before[`bootstrap ${name}`], name))
  it.each(engineCases.permutation.map((c) => [c.name, c] as const))("permutation %s", (name, c) => same(permutationRecord(c), before[`permutation ${name}`], name))
  it.each(engineCases.intervals.map((c) => [c.name, c] as const))("intervals %s", (name, c) => same(intervalsRecord(c), before[`intervals ${name}`], name))
})

describe("without the WebAssembly kernels, every figure by its metric over the drawn pairs (issue 34)", () => {
  it.each(engineCases.intervals.map((c) => [c.name, c] as const))("intervals %s: engine js gives the kernels' figures to 1e-12, the same ranks and rank intervals", (_, c) => {
    const generic = Intervals.compute(c.input, { ...c.options, engine: "js" })
    expect(TestResult.isInvalid(generic) ? generic : generic.engine).toBe("js")
    sameFigures(generic, Intervals.compute(c.input, { ...c.options, engine: "wasm" }))
  })

  it("a host whose WebAssembly refuses the kernels' module (no SIMD) takes the generic path for every job, with the figures from before", async () => {
    vi.resetModules()
    // Node's types do not declare WebAssembly (the package compiles without the DOM library; see src/internal/wasm.ts)
    const host = (globalThis as unknown as { WebAssembly: { validate: (bytes: Uint8Array) => boolean } }).WebAssembly
    const refuse = vi.spyOn(host, "validate").mockReturnValue(false)
    try {
      const fresh = await import("./engineCases.js")
      const { Intervals: Fresh } = await import("../src/index.js")
      const c = fresh.engineCases.intervals[0]
      const r = Fresh.compute(c.input, c.options)
      expect(TestResult.isInvalid(r) ? r : r.engine).toBe("js")
      expect(() => Fresh.compute(c.input, { ...c.options, engine: "wasm" })).toThrow("WebAssembly")
      for (const b of fresh.engineCases.bootstrap) same(fresh.bootstrapRecord(b), before[`bootstrap ${b.name}`], b.name)
      for (const p of fresh.engineCases.permutation) same(fresh.permutationRecord(p), before[`permutation ${p.name}`], p.name)
      for (const i of fresh.engineCases.intervals) same(fresh.intervalsRecord(i), before[`intervals ${i.name}`], i.name)
      expect(refuse).toHaveBeenCalled()
    } finally {
      refuse.mockRestore()
      vi.resetModules()
    }
  })
})
