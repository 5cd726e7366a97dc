/**
 * Output failures and the output folder's lock: a board that could not be written is never
 * reported as published (the OS's reason is given, no temp file is left), a second watcher on the
 * same folder is refused, and a removed output folder is made again.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Fiber, FileSystem, Layer, PlatformError, References } from "effect"
import { describe, expect, it } from "vitest"
import * as Watcher from "../src/Watcher.js"
import * as Fake from "./fixtures/fake.js"
import { board, layer, once, start, status, tempDir, waitBoard, waitFor } from "./fixtures/harness.js"

const runs = (folder: string, n: number) => {
  for (let i = 1; i <= n; i++) fs.writeFileSync(path.join(folder, `Team${i}_run1.txt`), Fake.runText(Fake.GOLD.map((g, k) => (k === i % 8 ? g + 1 : g))))
}

/** A file system whose writes under `out` stop half-way with ENOSPC, as on a full disk (once the lock is taken: a disk full before is the test below). */
const diskFull = (out: string) =>
  Layer.effect(
    FileSystem.FileSystem,
    Effect.map(FileSystem.FileSystem, (real) => ({
      ...real,
      writeFile: (file: string, data: Uint8Array, options?: Parameters<typeof real.writeFile>[2]) =>
        file.startsWith(out) && !path.basename(file).startsWith(".watch.lock.")
          ? Effect.sync(() => fs.writeFileSync(file, data.subarray(0, data.length >> 1))).pipe(
              Effect.andThen(
                Effect.fail(
                  PlatformError.systemError({ _tag: "Unknown", module: "FileSystem", method: "writeFile", pathOrDescriptor: file, description: "ENOSPC: no space left on device, write" })
                )
              )
            )
          : real.writeFile(file, data, options)
    }))
  ).pipe(Layer.provide(NodeServices.layer))

/**
 * A file system on which, while `full.on`, every new output file under `out` (the temporary files
 * outputs and the lock are written to, before their rename or link) fails with ENOSPC as Node
 * reports it.
 */
const switchableFull = (out: string) => {
  const full = { on: false }
  const layer = Layer.effect(
    FileSystem.FileSystem,
    Effect.map(FileSystem.FileSystem, (real) => ({
      ...real,
      writeFile: (file: string, data: Uint8Array, options?: Parameters<typeof real.writeFile>[2]) =>
        full.on && file.startsWith(out) && file.endsWith(".tmp")
          ? Effect.fail(
              PlatformError.systemError({
                _tag: "Unknown",
                module: "FileSystem",
                method: "writeFile",
                pathOrDescriptor: file,
                cause: Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: "ENOSPC" })
              })
            )
          : real.writeFile(file, data, options)
    }))
  ).pipe(Layer.provide(NodeServices.layer))
  return { full, layer }
}

describe("output failures", () => {
  it("a full disk while watching: said in words with the file, and the board catches up when space returns, with no change to the runs", async () => {
    const folder = tempDir("enospc")
    const out = tempDir("enospc-out")
    runs(folder, 2)
    const { full, layer: fsLayer } = switchableFull(out)
    const fiber = Effect.runFork(
      Watcher.watch({ folder, out, settle: 0, debounce: 20, rescanInterval: 100 }).pipe(
        Effect.provide(fsLayer),
        Effect.provide(layer()),
        Effect.provideService(References.MinimumLogLevel, "None")
      )
    )
    try {
      await waitBoard(out, "two runs", (b) => b.counts.runs === 2)
      full.on = true
      runs(folder, 3)
      const logFile = path.join(out, "watch.log")
      const said = await waitFor("the failure logged", () => /writing the outputs failed: (.*)$/m.exec(fs.readFileSync(logFile, "utf8"))?.[1], 20_000)
      expect(said.startsWith(`${out}/.`) && said.endsWith(".tmp: no space is left on the device (ENOSPC); tried again every 2 s")).toBe(true)
      expect(fs.readFileSync(logFile, "utf8")).not.toContain("Unknown")
      expect(board(out)!.counts.runs).toBe(2)
      // space returns; nothing else changes
      full.on = false
      await waitBoard(out, "the third run on the board", (b) => b.counts.runs === 3, 20_000)
      // logged once the write that caught up is over (after leaderboard.json)
      await waitFor("the outputs written again, logged", () => fs.readFileSync(logFile, "utf8").includes("INFO the outputs are written again"), 20_000)
    } finally {
      await Effect.runPromise(Fiber.interrupt(fiber))
    }
  })

  it("a full disk at start: watch --once says why the lock could not be made", async () => {
    const folder = tempDir("enospc-lock")
    const out = tempDir("enospc-lock-out")
    runs(folder, 1)
    const { full, layer: fsLayer } = switchableFull(out)
    full.on = true
    const result = await Effect.runPromise(
      Watcher.watch({ folder, out, once: true, settle: 0 }).pipe(Effect.provide(fsLayer), Effect.provide(layer()), Effect.provideService(References.MinimumLogLevel, "None"))
    ).catch((e: unknown) => e)
    expect(result).toBeInstanceOf(Watcher.WatchError)
    const message = (result as Watcher.WatchError).message
    expect(message.startsWith(`cannot lock the output folder ${out}: ${out}/.watch.lock.`)).toBe(true)
    expect(message.endsWith(".tmp: no space is left on the device (ENOSPC)")).toBe(true)
  })

  it("a full disk: watch --once fails with the OS's reason, leaves no temp file, and never logs 'done'", async () => {
    const folder = tempDir("full")
    const out = tempDir("full-out")
    runs(folder, 3)
    const result = await Effect.runPromise(
      Watcher.watch({ folder, out, once: true, settle: 0 }).pipe(
        Effect.provide(diskFull(out)),
        Effect.provide(layer()),
        Effect.provideService(References.MinimumLogLevel, "None")
      )
    ).catch((e: unknown) => e)
    expect(result).toBeInstanceOf(Watcher.WatchError)
    const error = result as Watcher.WatchError
    expect(error.output).toBe(true)
    expect(error.message).toContain("no space left on device")
    const left = (dir: string) => fs.readdirSync(dir).filter((n) => n.endsWith(".tmp"))
    expect(left(out)).toEqual([])
    expect(left(path.join(out, "cache"))).toEqual([])
    expect(fs.existsSync(path.join(out, "leaderboard.json"))).toBe(false)
    // watch.log (appended outside the failing writes here) says why, and does not say "done"
    const log = fs.readFileSync(path.join(out, "watch.log"), "utf8")
    expect(log).toContain("writing the outputs failed")
    expect(log).toContain("the outputs could not be written: ")
    expect(log).not.toMatch(/ INFO done$/m)
  })
})

/** Two runs in fresh `label` folders and a watcher on them, not yet idle. */
const firstWatcher = (label: string) => {
  const folder = tempDir(label)
  const out = tempDir(`${label}-out`)
  runs(folder, 2)
  return { folder, out, first: start({ folder, out, debounce: 20, rescanInterval: 0 }) }
}

/** A second watcher on the same folders, refused: the error it fails with names this process as the first. */
const refusedSecond = async (folder: string, out: string): Promise<Watcher.WatchError> => {
  const second = await once({ folder, out }).catch((e: unknown) => e)
  expect(second).toBeInstanceOf(Watcher.WatchError)
  expect((second as Watcher.WatchError).message).toMatch(new RegExp(`another watcher \\(pid ${process.pid} `))
  return second as Watcher.WatchError
}

describe("the output folder's lock", () => {
  it("a second watcher on the same output folder is refused, naming the first; a stale lock is taken over", async () => {
    const { folder, out, first } = firstWatcher("lock")
    await waitFor("the first watcher idle", () => status(out)?.phase === "watching")
    expect((await refusedSecond(folder, out)).output).toBeUndefined()
    await first.stop()
    // released on stop
    expect(fs.existsSync(path.join(out, "watch.lock"))).toBe(false)
    // a lock left by a process that is gone (here: a finished child's pid) does not hold
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout
    fs.writeFileSync(path.join(out, "watch.lock"), JSON.stringify({ pid: Number(dead), host: (await import("node:os")).hostname(), startedAt: "2026-01-01T00:00:00Z" }))
    const summary = await once({ folder, out })
    expect(summary.runs).toBe(2)
  })

  it("the output folder removed while watching is made again and the board rewritten", async () => {
    const folder = tempDir("removed")
    const out = tempDir("removed-out")
    runs(folder, 2)
    const w = start({ folder, out, debounce: 20, rescanInterval: 100 })
    await waitBoard(out, "two runs", (b) => b.counts.runs === 2)
    fs.rmSync(out, { recursive: true, force: true })
    runs(folder, 3)
    const b = await waitBoard(out, "three runs after the folder was removed", (x) => x.counts.runs === 3)
    expect(b.counts.scored).toBe(3)
    expect(fs.existsSync(path.join(out, "watch.lock"))).toBe(true)
    await w.stop()
    expect(board(out)!.counts.runs).toBe(3)
  })
})

describe("the output folder's lock, after the folder is removed", () => {
  it("a second watcher started after the output folder was removed is refused: the first still holds the folder", async () => {
    const { folder, out, first } = firstWatcher("twin")
    try {
      await waitFor("the first watcher idle", () => status(out)?.phase === "watching")
      fs.rmSync(out, { recursive: true, force: true })
      await refusedSecond(folder, out)
    } finally {
      await first.stop()
    }
    // released on stop: a watcher may start again
    const summary = await once({ folder, out })
    expect(summary.runs).toBe(2)
  })
})

describe("run names", () => {
  it("a file name that is not valid UTF-8 is listed as a failed run and logged, not silently missing", async () => {
    const folder = tempDir("latin1")
    const out = tempDir("latin1-out")
    runs(folder, 2)
    // "Équipe_run1.txt" in Latin-1: 0xC9 is not valid UTF-8
    const name = Buffer.concat([Buffer.from(`${folder}/`), Buffer.from([0xc9]), Buffer.from("quipe_run1.txt")])
    fs.writeFileSync(name, Fake.runText(Fake.GOLD))
    const summary = await once({ folder, out })
    expect(summary).toMatchObject({ runs: 3, scored: 2, failed: 1 })
    const bad = board(out)!.runs.find((r) => r.entry.includes("\uFFFD"))!
    expect(bad.status).toBe("failed")
    expect(bad.failure).toContain("not valid UTF-8")
    expect(fs.readFileSync(path.join(out, "watch.log"), "utf8")).toContain("not valid UTF-8")
  })
})

describe("watch.log", () => {
  it("stores no raw terminal escape or line break from a run's name: they are written as visible escapes", async () => {
    const folder = tempDir("escapes")
    const out = tempDir("escapes-out")
    runs(folder, 1)
    fs.writeFileSync(path.join(folder, "Evil\u001b[2J\u001b]0;owned\u0007\nFAKE INFO done_run1.txt"), "not a run\n")
    await once({ folder, out })
    const log = fs.readFileSync(path.join(out, "watch.log"), "utf8")
    expect(log).toContain("Evil\\x1b[2J")
    // eslint-disable-next-line no-control-regex
    expect(log).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/)
    // every line is one of the watcher's (a name cannot start a line of its own)
    expect(log.trimEnd().split("\n").every((line) => /^\d{4}-\d\d-\d\dT[\d:.]+Z (INFO|WARN|ERROR) /.test(line))).toBe(true)
  })
})
