/**
 * What a new run in a large folder waits for on its way to the board (issue 36): the gap after a
 * write (paced only in a burst), a status change that builds no board, a rescan that looks for no
 * `run.json` the folder's listing lacks. Logic only: the latency itself is measured by the bench
 * (apps/cli/bench/speed.bench.ts, `STSEVAL_BENCH_ROWS=watch`), never asserted here.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, FileSystem, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { signature } from "../src/internal/files.js"
import { gapAfter, snapshot } from "../src/internal/publish.js"
import type { Published } from "../src/internal/session.js"
import * as Fake from "./fixtures/fake.js"
import { tempDir } from "./fixtures/harness.js"
import { sessionOf, track } from "./fixtures/snapshot.js"

describe("gapAfter: the wait after a write", () => {
  it("in a burst (runs pending when the write began), twice what the write took, and never under publishInterval", () => {
    expect(gapAfter(400, true, 50)).toBe(800)
    expect(gapAfter(10, true, 50)).toBe(50)
  })

  it("with nothing pending, publishInterval alone: a run copied in next is not held back by the last board's write", () => {
    expect(gapAfter(400, false, 50)).toBe(50)
    expect(gapAfter(400, false, 0)).toBe(0)
  })
})

const record = (entry: string, value: number): Published => ({
  entry,
  kind: "file",
  team: entry.split("_")[0],
  run: 1,
  primary: true,
  late: false,
  corrected: false,
  hash: `hash-${entry}-${value}`,
  submittedAt: 0,
  outcome: { status: "scored", official: [{ ranking: "similarity", metric: "pearson", value }], errors: [], warnings: [] },
  key: `key-${entry}`,
  sig: "File|.:8:0"
})

describe("snapshot: a board is built only when the published runs changed", () => {
  it("a status change (a run queued, then scoring) gives the same board, not one built again", () => {
    const a = track("A_run1.txt", record("A_run1.txt", 0.9))
    const session = sessionOf([a, track("B_run1.txt", undefined)])
    const first = snapshot(session)
    session.tracks.get("B_run1.txt")!.status = "scoring"
    expect(snapshot(session)).toBe(first)
    expect(first.runs.map((r) => r.entry)).toEqual(["A_run1.txt"])
  })

  it("a run published, re-scored or removed gives a new board with it", () => {
    const a = track("A_run1.txt", record("A_run1.txt", 0.9))
    const b = track("B_run1.txt", undefined)
    const session = sessionOf([a, b])
    const first = snapshot(session)
    b.published = record("B_run1.txt", 0.95)
    session.counters.pending = 0
    const second = snapshot(session)
    expect(second).not.toBe(first)
    expect(second.rankings[0].entries.map((e) => [e.id, e.rank])).toEqual([["B/run1", 1], ["A/run1", 2]])
    // re-scored: a new record object, with another figure
    a.published = record("A_run1.txt", 0.99)
    expect(snapshot(session).rankings[0].entries.map((e) => [e.id, e.rank])).toEqual([["A/run1", 1], ["B/run1", 2]])
    session.tracks.delete("A_run1.txt")
    expect(snapshot(session).runs.map((r) => r.entry)).toEqual(["B_run1.txt"])
  })
})

describe("signature with the folder's listing (the rescan's)", () => {
  /** The real file system, recording every path stat'ed. */
  const counting = (stats: Array<string>) =>
    Layer.effect(
      FileSystem.FileSystem,
      Effect.map(FileSystem.FileSystem, (real) => ({ ...real, stat: (p: string) => Effect.andThen(Effect.sync(() => stats.push(p)), real.stat(p)) }))
    ).pipe(Layer.provide(NodeServices.layer))

  const sign = async (folder: string, entry: string, listed?: ReadonlySet<string>) => {
    const stats: Array<string> = []
    const sig = await Effect.runPromise(signature(folder, entry, Fake.edition, listed).pipe(Effect.provide(Layer.merge(NodeServices.layer, counting(stats)))))
    return { sig: sig.sig, stats: stats.map((s) => path.basename(s)) }
  }

  it("looks for no run.json the listing lacks, and finds the same signature", async () => {
    const folder = tempDir("pace-signature")
    fs.writeFileSync(path.join(folder, "A_run1.txt"), Fake.runText(Fake.GOLD))
    const full = await sign(folder, "A_run1.txt")
    const listed = await sign(folder, "A_run1.txt", new Set(fs.readdirSync(folder)))
    expect(listed.stats).toEqual(["A_run1.txt"])
    expect(listed.sig).toBe(full.sig)
  })

  it("a run.json the listing names is read into the signature as before", async () => {
    const folder = tempDir("pace-signature-meta")
    fs.writeFileSync(path.join(folder, "A_run1.txt"), Fake.runText(Fake.GOLD))
    fs.writeFileSync(path.join(folder, "A_run1.run.json"), "{}")
    const listed = await sign(folder, "A_run1.txt", new Set(fs.readdirSync(folder)))
    expect(listed.stats).toContain("A_run1.run.json")
    expect(listed.sig).toBe((await sign(folder, "A_run1.txt")).sig)
    expect(listed.sig).toContain("A_run1.run.json")
  })
})
