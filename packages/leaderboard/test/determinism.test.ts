/**
 * The same folder always gives the same `leaderboard.json` bytes (docs/watch.md): a session that
 * scores every run and a restart that takes every run from the cache write identical files,
 * through the real engine, whose runs carry issues (an error with its line, expected and found
 * value; warnings) that the restart reads back from the cache through formats' `Issue` Schema.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Registry } from "@stseval/formats"
import { Effect, Layer, References } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import * as ScoringAdapter from "../src/ScoringAdapter.js"
import * as Watcher from "../src/Watcher.js"
import { sts2017Session, tempDir } from "./fixtures/harness.js"

const sts2017 = Registry.get("sts2017")!
const PAIRS = 12

let state = 99
const rand = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32

const { goldDir, folder } = sts2017Session("determinism", PAIRS, rand, (g) => ({
  Good_run1primary: g.map((v) => `${Math.round((v + rand() - 0.5) * 1000) / 1000}\n`).join(""),
  // scored, with a warning on a line: a score beyond the scale, and no final newline
  Loose_run1primary: [...g.slice(0, -1).map((v) => String(v)), "5.5"].join("\n"),
  // not scored: a score that is not a number (an error with its line, what was expected and found)
  Bad_run1primary: [...g.slice(1).map(String), "oops"].join("\n") + "\n"
}))

const layer = Layer.provideMerge(ScoringAdapter.layerWithReport({ task: sts2017, gold: goldDir }), NodeServices.layer)
const once = (out: string) =>
  Effect.runPromise(Watcher.watch({ folder, out, once: true }).pipe(Effect.provide(layer), Effect.provideService(References.MinimumLogLevel, "None")))
const boardBytes = (out: string) => fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")

describe("the same folder, the same leaderboard.json", () => {
  it("a fresh session and a restart from the cache write byte-identical files (issues decoded from the cache included)", async () => {
    const out = tempDir("determinism-out")
    const fresh = await once(out)
    expect(fresh).toMatchObject({ scoredThisSession: 3, cacheHits: 0 })
    const first = boardBytes(out)
    const board = JSON.parse(first) as { runs: Array<{ id: string; errors: Array<Record<string, unknown>>; warnings: Array<Record<string, unknown>> }> }
    // the issues that went through the cache: with a line, and with expected and found values
    const bad = board.runs.find((r) => r.id === "Bad/run1")!
    expect(bad.errors.some((i) => i["line"] !== undefined && i["found"] !== undefined)).toBe(true)
    expect(board.runs.find((r) => r.id === "Loose/run1")!.warnings.some((i) => i["line"] !== undefined)).toBe(true)
    const restart = await once(out)
    expect(restart).toMatchObject({ scoredThisSession: 0, cacheHits: 3 })
    expect(boardBytes(out)).toBe(first)
  })
})
