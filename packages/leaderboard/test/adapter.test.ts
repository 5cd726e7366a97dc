import * as NodeServices from "@effect/platform-node/NodeServices"
import { Engine } from "@stseval/scoring"
import { Effect, Layer, References } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import * as ScoringAdapter from "../src/ScoringAdapter.js"
import * as Watcher from "../src/Watcher.js"
import { board, tempDir } from "./fixtures/harness.js"
import * as Synthetic from "./fixtures/synthetic.js"

const run = <A, E>(self: Effect.Effect<A, E>) => Effect.runPromise(self.pipe(Effect.provideService(References.MinimumLogLevel, "None")))

describe("ScoringAdapter (the real engine)", () => {
  it("the watcher's figures equal a one-shot Engine.score of the same folder", async () => {
    const goldDir = tempDir("gold")
    const gold = Synthetic.goldScores(40)
    const goldFile = Synthetic.writeGold(goldDir, gold)
    const folder = tempDir("real")
    const out = tempDir("real-out")
    for (let i = 1; i <= 5; i++) {
      fs.writeFileSync(path.join(folder, `Team${i}_run1${i === 1 ? "primary" : ""}.txt`), Synthetic.runScores(gold, i, i / 2).map((s) => `${s}\n`).join(""))
    }
    // a run with a bad line: the engine rejects it with the line number
    fs.writeFileSync(path.join(folder, "Bad_run1.txt"), [...gold.slice(0, 39).map(String), "oops"].join("\n") + "\n")
    const layer = Layer.provideMerge(ScoringAdapter.layerWithReport({ task: Synthetic.edition, gold: goldFile }), NodeServices.layer)
    const summary = await run(Watcher.watch({ folder, out, once: true }).pipe(Effect.provide(layer)))
    expect(summary).toMatchObject({ runs: 6, scored: 5, failed: 1, ranked: 5 })

    const oneShot = await run(
      Engine.score({ task: Synthetic.edition, gold: goldFile, folder, primaryOnly: false }).pipe(Effect.provide(NodeServices.layer))
    )
    const b = board(out)!
    const expected = oneShot.ranked.rankings[0].entries.map((e) => [e.meta.id, e.rank ?? null, e.value._tag === "Defined" ? e.value.value : null])
    const got = b.rankings[0].entries.map((e) => [e.id, e.rank, e.value])
    expect(got).toEqual(expected)
    const bad = b.runs.find((r) => r.id === "Bad/run1")!
    expect(bad.status).toBe("failed")
    expect(bad.errors.some((i) => i.line === 40)).toBe(true)
    // rendered by @stseval/tables: Pearson x 100 with 2 decimals (STS-B's published style)
    const md = fs.readFileSync(path.join(out, "leaderboard.md"), "utf8")
    const top = b.rankings[0].entries[0]
    expect(md).toContain(top.id)
    expect(md).toContain((top.value! * 100).toFixed(2))
    expect(fs.readFileSync(path.join(out, "leaderboard.html"), "utf8")).toMatch(/<table/)
  })
})
