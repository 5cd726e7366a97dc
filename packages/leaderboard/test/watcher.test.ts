import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import type { Leaderboard } from "../src/Leaderboard.js"
import * as Fake from "./fixtures/fake.js"
import { board, once, readJson, start, status, tempDir, valueOf, waitBoard, waitFor } from "./fixtures/harness.js"

// Runs whose Pearson with the gold is worked out by hand: the gold itself (r = 1), the gold
// reversed (r = -1) and a linear transform of the gold (r = 1).
const GOLD = Fake.GOLD
const REVERSED = [...GOLD].reverse()
// 2 * gold + 1
const LINEAR = GOLD.map((g) => 2 * g + 1)
// r(GOLD, REVERSED): REVERSED is not an exact linear function of GOLD; computed independently below
const rReversed = Fake.pearson(REVERSED, GOLD)

const stops: Array<() => Promise<unknown>> = []
afterEach(async () => {
  while (stops.length > 0) await stops.pop()!()
})

const write = (dir: string, name: string, text: string | Uint8Array) => fs.writeFileSync(path.join(dir, name), text)

/** A watcher started on fresh `<label>` and `<label>-out` folders (stopped after the test), once it says it is watching. */
const watching = async (label: string, options: Omit<Parameters<typeof start>[0], "folder" | "out">, fake: Fake.FakeOptions = {}) => {
  const folder = tempDir(label)
  const out = tempDir(`${label}-out`)
  stops.push(start({ folder, out, ...options }, fake).stop)
  await waitFor("watcher started", () => status(out)?.phase === "watching")
  return { folder, out }
}

describe("once", () => {
  it("scores a folder of file, zip and folder runs; failed runs are listed, never ranked", async () => {
    const folder = tempDir("once")
    const out = tempDir("once-out")
    write(folder, "Alpha_run1primary.txt", Fake.runText(GOLD))
    write(folder, "Beta_run1.zip", Fake.makeZip([{ name: "scores.txt", text: Fake.runText(REVERSED) }]))
    fs.mkdirSync(path.join(folder, "Gamma_run2"))
    write(path.join(folder, "Gamma_run2"), "scores.txt", Fake.runText(LINEAR))
    write(folder, "Delta_run1.txt", "1\n2\nthree\n4\n5\n6\n7\n8\n")
    write(folder, ".hidden.txt", Fake.runText(GOLD))
    write(folder, "Eps_run1.txt.part", "1\n")
    const summary = await once({ folder, out })
    expect(summary).toMatchObject({ runs: 4, scored: 3, failed: 1, ranked: 3, scoredThisSession: 4, cacheHits: 0 })
    const b = board(out)!
    const official = b.rankings.find((r) => r.ranking === "official")!
    // r = 1 for Alpha and Gamma (a tie shares rank 1), then Beta
    expect(official.entries.map((e) => [e.rank, e.id])).toEqual([
      [1, "Alpha/run1"],
      [1, "Gamma/run2"],
      [3, "Beta/run1"],
      [null, "Delta/run1"]
    ])
    expect(official.entries[0].value).toBeCloseTo(1, 12)
    expect(official.entries[2].value).toBeCloseTo(rReversed, 12)
    expect(official.entries[0].primary).toBe(true)
    const delta = b.runs.find((r) => r.id === "Delta/run1")!
    expect(delta.status).toBe("failed")
    expect(delta.errors[0]).toMatchObject({ code: "not-a-number", line: 3 })
    expect(b.runs.find((r) => r.id === "Beta/run1")!.kind).toBe("zip")
    expect(b.runs.find((r) => r.id === "Gamma/run2")!.kind).toBe("folder")
    const s = status(out)!
    expect(s.idle).toBe(true)
    expect(Object.keys(s.runs).sort()).toEqual(["Alpha_run1primary.txt", "Beta_run1.zip", "Delta_run1.txt", "Gamma_run2"])
    expect(s.runs["Delta_run1.txt"].status).toBe("failed")
    expect(s.runs["Beta_run1.zip"].status).toBe("scored")
    for (const f of ["leaderboard.md", "leaderboard.html", "leaderboard.public.json", "state.json", "watch.log"]) {
      expect(fs.existsSync(path.join(out, f)), f).toBe(true)
    }
    // the tables' renderer prints in the edition's style (scoring's Style): STS-B's r x 100, 2 decimals; tied runs share rank 1, each with the bullet
    expect(fs.readFileSync(path.join(out, "leaderboard.md"), "utf8")).toMatch(/\| Alpha\/run1 \| Alpha \| +yes +\| +1 \| +100\.00 • \| scored \|/)
    // no temp files left behind
    expect(fs.readdirSync(out).filter((n) => n.endsWith(".tmp"))).toEqual([])
  })

  it("a second run takes every unchanged run from the cache and writes the same leaderboard", async () => {
    const folder = tempDir("cache")
    const out = tempDir("cache-out")
    write(folder, "A_run1.txt", Fake.runText(GOLD))
    write(folder, "B_run1.txt", Fake.runText(REVERSED))
    await once({ folder, out })
    const first = fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")
    const seen: Array<string> = []
    write(folder, "C_run1.txt", Fake.runText(LINEAR))
    const summary = await once({ folder, out }, { seen })
    expect(summary).toMatchObject({ runs: 3, scoredThisSession: 1, cacheHits: 2 })
    expect(seen).toEqual([Fake.runText(LINEAR)])
    fs.rmSync(path.join(folder, "C_run1.txt"))
    const again = await once({ folder, out })
    expect(again).toMatchObject({ runs: 2, scoredThisSession: 0 })
    expect(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")).toBe(first)
  })

  it("a run named __proto__ is a run like any other: on the board, in status.json and state.json, restored after a restart", async () => {
    const folder = tempDir("proto")
    const out = tempDir("proto-out")
    write(folder, "__proto__", Fake.runText(GOLD))
    write(folder, "constructor", Fake.runText(REVERSED))
    const summary = await once({ folder, out })
    expect(summary).toMatchObject({ runs: 2, scored: 2 })
    expect(board(out)!.runs.map((r) => r.id)).toEqual(["__proto__", "constructor"])
    const s = status(out)!
    expect(Object.keys(s.runs)).toEqual(["__proto__", "constructor"])
    expect(s.runs["__proto__"].status).toBe("scored")
    const state = readJson<{ runs: Record<string, unknown> }>(path.join(out, "state.json"))!
    expect(Object.keys(state.runs)).toEqual(["__proto__", "constructor"])
    // restored from state.json and the cache: nothing scored again
    expect(await once({ folder, out })).toMatchObject({ runs: 2, scoredThisSession: 0, cacheHits: 2 })
  })

  it("a run whose run.json cannot be used: listed as failed under its name, of no team; kept so after a restart from state.json", async () => {
    const folder = tempDir("identity")
    const out = tempDir("identity-out")
    write(folder, "A_run1.txt", Fake.runText(GOLD))
    write(folder, "A_run2primary.txt", Fake.runText(LINEAR))
    write(folder, "A_run2primary.run.json", '{ "team": ')
    expect(await once({ folder, out })).toMatchObject({ runs: 2, scored: 1, failed: 1 })
    const first = fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")
    const unknown = board(out)!.runs.find((r) => r.entry === "A_run2primary.txt")!
    expect(unknown).toMatchObject({ id: "A_run2primary.txt", team: "A_run2primary.txt", primary: false, status: "failed", identityUnknown: true })
    expect(unknown.errors.map((e) => e.code)).toEqual(["bad-run-metadata"])
    const state = readJson<{ runs: Record<string, { identityUnknown?: boolean }> }>(path.join(out, "state.json"))!
    expect(state.runs["A_run2primary.txt"].identityUnknown).toBe(true)
    expect(await once({ folder, out })).toMatchObject({ runs: 2, scoredThisSession: 0 })
    expect(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")).toBe(first)
  })

  it("hidden phase: the public files carry validation status only", async () => {
    const folder = tempDir("hidden")
    const out = tempDir("hidden-out")
    write(folder, "A_run1.txt", Fake.runText(GOLD))
    write(folder, "B_run1.txt", "x\n")
    await once({ folder, out, hidden: true })
    const pub = readJson<Leaderboard>(path.join(out, "leaderboard.public.json"))!
    expect(pub).toMatchObject({ view: "public", hidden: true, rankings: [] })
    expect(pub.runs.map((r) => [r.id, r.status, r.official.length])).toEqual([
      ["A/run1", "scored", 0],
      ["B/run1", "failed", 0]
    ])
    expect(pub.runs[1].errors.length).toBeGreaterThan(0)
    const text = fs.readFileSync(path.join(out, "leaderboard.public.md"), "utf8") + fs.readFileSync(path.join(out, "leaderboard.public.html"), "utf8")
    expect(text).not.toContain("100.00")
    expect(text).not.toMatch(/pearson/)
    // the organisers' board still has the figures
    expect(valueOf(board(out)!, "A_run1.txt")).toBeCloseTo(1, 12)
  })

  it("deadline by mtime: a run modified after the deadline is flagged post-deadline", async () => {
    const folder = tempDir("deadline")
    const out = tempDir("deadline-out")
    write(folder, "A_run1.txt", Fake.runText(GOLD))
    write(folder, "B_run1.txt", Fake.runText(REVERSED))
    const deadline = Date.parse("2026-01-01T00:00:00Z")
    fs.utimesSync(path.join(folder, "A_run1.txt"), new Date(deadline - 60_000), new Date(deadline - 60_000))
    fs.utimesSync(path.join(folder, "B_run1.txt"), new Date(deadline + 60_000), new Date(deadline + 60_000))
    await once({ folder, out, deadline: "2026-01-01T00:00:00Z" })
    const b = board(out)!
    expect(b.runs.map((r) => [r.id, r.flags])).toEqual([
      ["A/run1", []],
      ["B/run1", ["post-deadline"]]
    ])
    expect(fs.readFileSync(path.join(out, "leaderboard.md"), "utf8")).toContain("B/run1†")
    // listed with its mark, never ranked (as the task papers list late runs)
    expect(b.rankings[0].entries.map((e) => [e.id, e.rank, e.reason])).toEqual([
      ["A/run1", 1, null],
      ["B/run1", null, "submitted after the deadline (listed, never ranked)"]
    ])
  })
})

describe("watching", () => {
  it("reacts to runs added, overwritten in place, renamed and deleted", async () => {
    const folder = tempDir("watch")
    const out = tempDir("watch-out")
    write(folder, "A_run1.txt", Fake.runText(GOLD))
    const w = start({ folder, out, debounce: 100, rescanInterval: 0 })
    stops.push(w.stop)
    await waitBoard(out, "A scored", (b) => valueOf(b, "A_run1.txt") !== undefined)

    write(folder, "B_run1.txt", Fake.runText(REVERSED))
    let b = await waitBoard(out, "B added", (b) => valueOf(b, "B_run1.txt") !== undefined)
    expect(valueOf(b, "B_run1.txt")).toBeCloseTo(rReversed, 12)

    write(folder, "B_run1.txt", Fake.runText(LINEAR))
    b = await waitBoard(out, "B overwritten", (b) => valueOf(b, "B_run1.txt") === Fake.pearson(LINEAR, GOLD))
    expect(valueOf(b, "B_run1.txt")).toBeCloseTo(1, 12)

    fs.renameSync(path.join(folder, "B_run1.txt"), path.join(folder, "B_run2.txt"))
    b = await waitBoard(out, "B renamed", (b) => b.runs.some((r) => r.entry === "B_run2.txt") && !b.runs.some((r) => r.entry === "B_run1.txt"))
    expect(b.runs.map((r) => r.id)).toEqual(["A/run1", "B/run2"])
    expect(Object.keys(status(out)!.runs).sort()).toEqual(["A_run1.txt", "B_run2.txt"])

    fs.rmSync(path.join(folder, "A_run1.txt"))
    b = await waitBoard(out, "A deleted", (b) => !b.runs.some((r) => r.entry === "A_run1.txt"))
    expect(b.runs.map((r) => r.id)).toEqual(["B/run2"])
    expect(Object.keys(status(out)!.runs)).toEqual(["B_run2.txt"])
  })

  it("a run written slowly in chunks is scored once, complete", async () => {
    const seen: Array<string> = []
    const { folder, out } = await watching("slow", { debounce: 300, rescanInterval: 0 }, { seen })
    const file = path.join(folder, "Slow_run1.txt")
    const text = Fake.runText(LINEAR)
    const fd = fs.openSync(file, "w")
    // a writer that pauses 40 ms between chunks (well inside the 300 ms quiet period): this is the
    // scenario under test, not synchronisation
    for (let i = 0; i < text.length; i += 4) {
      fs.writeSync(fd, text.slice(i, i + 4))
      await new Promise((r) => setTimeout(r, 40))
    }
    fs.closeSync(fd)
    const b = await waitBoard(out, "slow run scored", (b) => valueOf(b, "Slow_run1.txt") !== undefined)
    expect(valueOf(b, "Slow_run1.txt")).toBeCloseTo(1, 12)
    expect(seen).toEqual([text])
  })

  it("a folder run copied in file by file, with pauses longer than the debounce window, is scored once, complete (settle)", async () => {
    const seen: Array<string> = []
    const published: Array<string> = []
    const { folder, out } = await watching(
      "settle",
      {
        debounce: 50,
        settle: 1200,
        rescanInterval: 0,
        onPublish: (b) => {
          const r = b.runs.find((x) => x.entry === "Copy_run1")
          if (r !== undefined) published.push(`${r.status}:${r.official[0]?.value ?? "-"}`)
        }
      },
      { seen, edition: { ...Fake.edition, submission: "folder" } }
    )
    // a slow copy: the folder, then its one file in three pieces, 300 ms apart (six debounce
    // windows): this pacing is the scenario under test, not synchronisation
    const run = path.join(folder, "Copy_run1")
    fs.mkdirSync(run)
    const text = Fake.runText(LINEAR)
    const third = Math.ceil(text.length / 3)
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 300))
      fs.appendFileSync(path.join(run, "scores.txt"), text.slice(i * third, (i + 1) * third))
    }
    const b = await waitBoard(out, "copied run scored", (b) => valueOf(b, "Copy_run1") !== undefined)
    expect(valueOf(b, "Copy_run1")).toBeCloseTo(1, 12)
    // the board file is renamed into place before `onPublish` is told of it: a reader may see the
    // file first (CI, Node 26, once)
    await waitFor("the board published", () => published.length > 0)
    // scored once, on the whole file; never published half-copied (failed, or another figure)
    expect(seen).toEqual([text])
    expect(new Set(published)).toEqual(new Set([`scored:${valueOf(b, "Copy_run1")}`]))
  })

  it("a zip replaced by a folder of the same run", async () => {
    const folder = tempDir("zipdir")
    const out = tempDir("zipdir-out")
    write(folder, "Z_run1.zip", Fake.makeZip([{ name: "s.txt", text: Fake.runText(REVERSED) }]))
    const w = start({ folder, out, debounce: 100, rescanInterval: 0 })
    stops.push(w.stop)
    await waitBoard(out, "zip scored", (b) => b.runs.some((r) => r.entry === "Z_run1.zip"))
    fs.rmSync(path.join(folder, "Z_run1.zip"))
    fs.mkdirSync(path.join(folder, "Z_run1"))
    write(path.join(folder, "Z_run1"), "s.txt", Fake.runText(GOLD))
    const b = await waitBoard(out, "folder scored", (b) => b.runs.some((r) => r.entry === "Z_run1") && !b.runs.some((r) => r.entry === "Z_run1.zip"))
    expect(b.runs.map((r) => [r.id, r.kind])).toEqual([["Z/run1", "folder"]])
    expect(valueOf(b, "Z_run1")).toBeCloseTo(1, 12)
  })

  it("a file inside a folder run overwritten, and run.json beside a run edited, re-score the run", async () => {
    const folder = tempDir("nested")
    const out = tempDir("nested-out")
    fs.mkdirSync(path.join(folder, "F_run1", "sub"), { recursive: true })
    write(path.join(folder, "F_run1", "sub"), "s.txt", Fake.runText(REVERSED))
    write(folder, "G_run1.txt", Fake.runText(GOLD))
    // rescan off: only file-system events can tell the watcher
    const w = start({ folder, out, debounce: 100, rescanInterval: 0 })
    stops.push(w.stop)
    await waitBoard(out, "both scored", (b) => b.runs.length === 2)
    write(path.join(folder, "F_run1", "sub"), "s.txt", Fake.runText(LINEAR))
    let b = await waitBoard(out, "nested file re-scored", (b) => valueOf(b, "F_run1") === Fake.pearson(LINEAR, GOLD))
    expect(valueOf(b, "F_run1")).toBeCloseTo(1, 12)
    write(folder, "G_run1.run.json", JSON.stringify({ primary: true, late: true }))
    b = await waitBoard(out, "run.json applied", (b) => b.runs.find((r) => r.entry === "G_run1.txt")?.primary === true)
    expect(b.runs.find((r) => r.entry === "G_run1.txt")!.flags).toEqual(["late"])
  })

  it("a half-written zip is not scored until it opens", async () => {
    const seen: Array<string> = []
    const { folder, out } = await watching("zipslow", { debounce: 150, rescanInterval: 0 }, { seen })
    const zip = Fake.makeZip([{ name: "s.txt", text: Fake.runText(GOLD) }])
    const file = path.join(folder, "Q_run1.zip")
    const fd = fs.openSync(file, "w")
    for (let i = 0; i < zip.length; i += 16) {
      fs.writeSync(fd, zip.subarray(i, i + 16))
      await new Promise((r) => setTimeout(r, 20))
    }
    fs.closeSync(fd)
    const b = await waitBoard(out, "zip scored", (b) => b.runs.some((r) => r.entry === "Q_run1.zip"))
    expect(b.runs[0].status).toBe("scored")
    expect(seen).toEqual([Fake.runText(GOLD)])
  })

  it("a run deleted mid-scoring leaves no ghost", async () => {
    const folder = tempDir("ghost")
    const out = tempDir("ghost-out")
    write(folder, "Keep_run1.txt", Fake.runText(GOLD))
    // the engine holds Ghost_run1.txt mid-scoring until the test lets it go: the deletion lands while
    // it is scored however slow the machine is (a fixed scoring delay is a window that can be missed)
    let release = () => {}
    const released = new Promise<void>((resolve) => (release = resolve))
    let entered = () => {}
    const ghostScoring = new Promise<void>((resolve) => (entered = resolve))
    const w = start({ folder, out, debounce: 50, rescanInterval: 0 }, {
      hold: ({ entry }) => {
        if (entry !== "Ghost_run1.txt") return undefined
        entered()
        return released
      }
    })
    stops.push(w.stop)
    try {
      await waitBoard(out, "first run scored", (b) => b.runs.length === 1)
      write(folder, "Ghost_run1.txt", Fake.runText(REVERSED))
      await ghostScoring
      await waitFor("ghost being scored", () => status(out)?.runs["Ghost_run1.txt"]?.status === "scoring")
      fs.rmSync(path.join(folder, "Ghost_run1.txt"))
      const b = await waitBoard(out, "ghost gone", (_b, s) => s.runs["Ghost_run1.txt"] === undefined)
      expect(b.runs.map((r) => r.entry)).toEqual(["Keep_run1.txt"])
    } finally {
      release()
    }
    // and it stays gone once the scorer's answer for it arrives
    await waitFor("watch.log says so", () => fs.readFileSync(path.join(out, "watch.log"), "utf8").includes("Ghost_run1.txt: scored"))
    expect(board(out)!.runs.map((r) => r.entry)).toEqual(["Keep_run1.txt"])
  })

  it("rescan only (events off) still sees added and deleted runs", async () => {
    const { folder, out } = await watching("poll", { debounce: 50, events: false, rescanInterval: 100 })
    write(folder, "P_run1.txt", Fake.runText(GOLD))
    await waitBoard(out, "P added", (b) => valueOf(b, "P_run1.txt") !== undefined)
    fs.rmSync(path.join(folder, "P_run1.txt"))
    const b = await waitBoard(out, "P deleted", (b) => b.runs.length === 0)
    expect(b.counts.runs).toBe(0)
  })

  it("a stray file in a folder edition's submissions is warned about once, not on every rescan", async () => {
    const folder = tempDir("stray")
    const out = tempDir("stray-out")
    write(folder, "notes.txt", "not a run\n")
    const w = start({ folder, out, debounce: 20, events: false, rescanInterval: 30 }, { edition: { ...Fake.edition, submission: "folder" } })
    stops.push(w.stop)
    // two runs added one after the other, each seen only by a rescan (events off): rescans have
    // gone by with the stray file in place
    for (const run of ["A_run1", "B_run1"]) {
      fs.mkdirSync(path.join(folder, run))
      write(path.join(folder, run), "scores.txt", Fake.runText(GOLD))
      await waitBoard(out, `${run} scored`, (b) => valueOf(b, run) !== undefined)
    }
    const warnings = () => fs.readFileSync(path.join(out, "watch.log"), "utf8").split("\n").filter((l) => l.includes("notes.txt: not a run"))
    expect(warnings()).toHaveLength(1)
    // changed, it is looked at (and warned about) again
    write(folder, "notes.txt", "still not a run, longer\n")
    await waitFor("warned again", () => warnings().length === 2)
  })

  it("deadline by first-seen: a run landing after the deadline is post-deadline whatever its mtime", async () => {
    const { folder, out } = await watching("firstseen", { debounce: 50, deadline: Date.now() - 1000, deadlineBy: "first-seen" })
    write(folder, "L_run1.txt", Fake.runText(GOLD))
    // backdated: by mtime it would be on time
    fs.utimesSync(path.join(folder, "L_run1.txt"), new Date(2000, 0, 1), new Date(2000, 0, 1))
    const b = await waitBoard(out, "L scored", (b) => b.runs.length === 1)
    expect(b.runs[0].flags).toEqual(["post-deadline"])
    expect(status(out)!.runs["L_run1.txt"].postDeadline).toBe(true)
  })

  it("stops cleanly when interrupted: state flushed, status says stopped", async () => {
    const folder = tempDir("stop")
    const out = tempDir("stop-out")
    write(folder, "A_run1.txt", Fake.runText(GOLD))
    const w = start({ folder, out, debounce: 50 })
    await waitBoard(out, "scored", (b) => b.runs.length === 1)
    await w.stop()
    expect(status(out)!.phase).toBe("stopped")
    const state = readJson<{ runs: Record<string, unknown> }>(path.join(out, "state.json"))!
    expect(Object.keys(state.runs)).toEqual(["A_run1.txt"])
  })
})
