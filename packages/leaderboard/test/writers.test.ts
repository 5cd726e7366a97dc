import * as fs from "node:fs"
import * as path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import { heldForWriting } from "../src/internal/writers.js"
import * as Fake from "./fixtures/fake.js"
import { board, start, status, tempDir, valueOf, waitBoard, waitFor } from "./fixtures/harness.js"

// Whether /proc says who holds what (Linux, and every process's open files readable: root, or a
// machine of one user); elsewhere the watcher keeps its settle rule and these answers are "unknown".
const platformSays = heldForWriting(process.cwd(), performance.now()) !== undefined
if (!platformSays) console.warn("writers: /proc cannot say which files are open for writing here; the tests of that rule are skipped")

const stops: Array<() => Promise<unknown>> = []
afterEach(async () => {
  while (stops.length > 0) await stops.pop()!()
})

describe.skipIf(!platformSays)("heldForWriting: a run is whole once no process holds it open for writing (Linux's /proc)", () => {
  it("a file open for writing is held; closed, or open only for reading, it is not", () => {
    const dir = tempDir("writers")
    const file = path.join(dir, "A_run1.txt")
    const fd = fs.openSync(file, "w")
    fs.writeSync(fd, "1\n")
    expect(heldForWriting(file, performance.now())).toBe(true)
    fs.closeSync(fd)
    expect(heldForWriting(file, performance.now())).toBe(false)
    const reader = fs.openSync(file, "r")
    expect(heldForWriting(file, performance.now())).toBe(false)
    fs.closeSync(reader)
    // read and write ("r+") is writing
    const both = fs.openSync(file, "r+")
    expect(heldForWriting(file, performance.now())).toBe(true)
    fs.closeSync(both)
  })

  it("a folder is held while a file under it is; another file open beside it does not count", () => {
    const dir = tempDir("writers-folder")
    fs.mkdirSync(path.join(dir, "B_run1"))
    const fd = fs.openSync(path.join(dir, "B_run1", "scores.txt"), "w")
    const beside = fs.openSync(path.join(dir, "B_run1x.txt"), "w")
    expect(heldForWriting(path.join(dir, "B_run1"), performance.now())).toBe(true)
    fs.closeSync(fd)
    expect(heldForWriting(path.join(dir, "B_run1"), performance.now())).toBe(false)
    fs.closeSync(beside)
  })

  it("a look begun before the caller's last view of its run is not reused: a file opened since is seen", () => {
    const dir = tempDir("writers-since")
    const file = path.join(dir, "C_run1.txt")
    fs.writeFileSync(file, "1\n")
    expect(heldForWriting(file, performance.now())).toBe(false)
    const fd = fs.openSync(file, "a")
    expect(heldForWriting(file, performance.now())).toBe(true)
    fs.closeSync(fd)
  })
})

describe.skipIf(!platformSays)("the watcher: a run file closed by its writer is scored without the settle wait; one still open waits", () => {
  it("a run file written and closed is on the board long before its settle time (60 s here)", async () => {
    const folder = tempDir("closed")
    const out = tempDir("closed-out")
    const w = start({ folder, out, debounce: 50, settle: 60_000, rescanInterval: 0 })
    stops.push(w.stop)
    await waitFor("watcher started", () => status(out)?.phase === "watching")
    fs.writeFileSync(path.join(folder, "Closed_run1.txt"), Fake.runText(Fake.GOLD))
    // (waitBoard's own limit, 8 s, is far below the settle time: only the writer's close lets it through)
    const b = await waitBoard(out, "closed run scored", (b) => valueOf(b, "Closed_run1.txt") !== undefined)
    expect(valueOf(b, "Closed_run1.txt")).toBeCloseTo(1, 12)
  })

  it("a run file still held open for writing is not scored, even with no settle time, until its writer closes it", async () => {
    const folder = tempDir("held")
    const out = tempDir("held-out")
    const seen: Array<string> = []
    const w = start({ folder, out, debounce: 20, settle: 0, rescanInterval: 100 }, { seen })
    stops.push(w.stop)
    await waitFor("watcher started", () => status(out)?.phase === "watching")
    const text = Fake.runText(Fake.GOLD)
    const fd = fs.openSync(path.join(folder, "Held_run1.txt"), "w")
    fs.writeSync(fd, text.slice(0, 5))
    // a sibling run written and closed after it: once it is on the board, the held run has been
    // looked at over many debounce windows and rescans
    fs.writeFileSync(path.join(folder, "Other_run1.txt"), Fake.runText(Fake.GOLD))
    // (not waitBoard: the watcher is not idle while the held run waits)
    await waitFor("the other run scored", () => {
      const b = board(out)
      return b !== undefined && valueOf(b, "Other_run1.txt") !== undefined
    })
    // three rescans more (the pause is the scenario, not a synchronisation)
    await new Promise((r) => setTimeout(r, 300))
    expect(board(out)!.runs.some((r) => r.entry === "Held_run1.txt")).toBe(false)
    expect(seen).toEqual([text])
    fs.writeSync(fd, text.slice(5))
    fs.closeSync(fd)
    const b = await waitBoard(out, "held run scored once closed", (b) => valueOf(b, "Held_run1.txt") !== undefined)
    expect(valueOf(b, "Held_run1.txt")).toBeCloseTo(1, 12)
    // scored once, whole
    expect(seen).toEqual([text, text])
  })
})
