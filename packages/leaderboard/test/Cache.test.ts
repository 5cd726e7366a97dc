/**
 * The score cache keeps what scoring encodes of a run (`ResultSchema`'s JSON, the subset the board
 * reads), not a record of its own; a cache written before that (version 2: the board's own field
 * names and the whole run as `detail`) is never read as today's: the run is scored again.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Registry } from "@stseval/formats"
import { Engine, ResultJson } from "@stseval/scoring"
import { Effect, Layer, References } from "effect"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import * as Cache from "../src/Cache.js"
import * as ScoringAdapter from "../src/ScoringAdapter.js"
import * as Watcher from "../src/Watcher.js"
import { board, cacheEntries, sts2017Session, tempDir } from "./fixtures/harness.js"

const sts2017 = Registry.get("sts2017")!

let state = 11
const rand = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32

// two runs: one with every dataset, one lacking a dataset (its cell and zeroed figure come from the cache too)
const { goldDir, folder } = sts2017Session("cache", 12, rand, (g) => ({
  Good_run1primary: g.map((v) => `${Math.round((v + rand() - 0.5) * 1000) / 1000}\n`).join("")
}))
fs.rmSync(path.join(folder, "Good_run1primary", sts2017.datasets[0].run), { force: true })

const layer = Layer.provideMerge(ScoringAdapter.layerWithReport({ task: sts2017, gold: goldDir }), NodeServices.layer)
const quiet = <A, E, R>(self: Effect.Effect<A, E, R>) => Effect.provideService(self, References.MinimumLogLevel, "None")
const once = (out: string) => Effect.runPromise(quiet(Watcher.watch({ folder, out, once: true, settle: 0 })).pipe(Effect.provide(layer)))
const readEntry = (out: string) => cacheEntries(out)[0].entry

/** A cache entry as version 2 wrote it: the board's own figure records, the whole run as `detail`. */
const oldEntry = (now: Cache.CacheFile, value: number) => ({
  key: createHash("sha256").update(`2|${now.hash}|${now.task}|${now.signature}`).digest("hex"),
  task: now.task,
  signature: now.signature,
  hash: now.hash,
  outcome: {
    status: "scored",
    official: [{ ranking: "official", metric: "pearson", direction: "higher", value }],
    errors: [],
    warnings: [],
    datasets: sts2017.datasets.map((d) => ({ dataset: d.name, metric: "pearson", value, status: "scored" })),
    detail: { whatever: true }
  }
})

describe("Cache: what the watcher keeps of a scored run", () => {
  it("is scoring's encoded shape of the run's official figures (ResultJson), not a record of the board's own", async () => {
    const out = tempDir("cache-shape")
    await once(out)
    const entry = readEntry(out)
    const oneShot = await Effect.runPromise(quiet(Engine.score({ task: sts2017, gold: goldDir, folder, primaryOnly: false })).pipe(Effect.provide(NodeServices.layer)))
    const json = ResultJson.toJson(oneShot.runs[0])
    expect(entry.outcome.official).toEqual(json.official)
    expect("detail" in entry.outcome).toBe(false)
    // each dataset: its status and its ranked figure, as scoring encodes them, in the edition's order
    expect(entry.outcome.datasets?.map((d) => [d.dataset, d.status, d.figures])).toEqual(
      sts2017.datasets.map((d) => [d.name, json.datasets[d.name].status, { pearson: json.datasets[d.name].figures.pearson }])
    )
    expect(entry.outcome.datasets?.[0].status).toBe("missing")
  })

  it("an entry of the old format (version 2) is not read: the run is scored again and the board shows the engine's figure", async () => {
    const out = tempDir("cache-old")
    await once(out)
    const fresh = readEntry(out)
    const before = fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")
    fs.rmSync(path.join(out, "cache"), { recursive: true })
    fs.mkdirSync(path.join(out, "cache"))
    const old = oldEntry(fresh, 0.123)
    fs.writeFileSync(path.join(out, "cache", `${old.key}.json`), JSON.stringify(old))
    fs.rmSync(path.join(out, "state.json"))
    const restart = await once(out)
    expect(restart).toMatchObject({ scoredThisSession: 1, cacheHits: 0 })
    expect(board(out)!.runs[0].official[0].value).not.toBe(0.123)
    expect(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")).toBe(before)
  })

  it("an entry of the old shape under today's key is dropped with its reason, never a crash nor a hit", async () => {
    const out = tempDir("cache-old-key")
    await once(out)
    const fresh = readEntry(out)
    const k = Cache.key(fresh.hash, fresh.task, fresh.signature)
    const dir = path.join(out, "cache")
    fs.writeFileSync(path.join(dir, `${k}.json`), JSON.stringify({ ...oldEntry(fresh, 0.123), key: k }))
    const found = await Effect.runPromise(Cache.lookup(dir, k).pipe(Effect.provide(NodeServices.layer)))
    expect(found._tag).toBe("Dropped")
  })
})
