/**
 * The output folder's lock under watchers starting together on a folder with a stale lock: one
 * takes it, the others are refused (a stale lock removed by name let two run in 2 of 21 trials).
 * Each contender is a process of its own, as watchers are.
 */
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import * as Lock from "../src/internal/lock.js"
import { builtChildren, tempDir } from "./fixtures/harness.js"

const children = builtChildren("lock-children", ["child-lock"])

/** A contender in a process of its own, loaded and waiting for the word. */
const contender = (out: string, tmp: string) => {
  // each its own temp folder: the lock's twin (in <temp>/stseval-<uid>) is not what is tested here
  const c = spawn(process.execPath, [children["child-lock"], out], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, TMPDIR: tmp } })
  let stdout = ""
  const waiters: Array<() => void> = []
  c.stdout.on("data", (d) => {
    stdout += String(d)
    for (const w of waiters.splice(0)) w()
  })
  const when = (re: RegExp) =>
    new Promise<string>((resolve) => {
      const check = () => {
        const m = re.exec(stdout)
        if (m !== null) resolve(m[0])
        else waiters.push(check)
      }
      check()
    })
  const closed = new Promise<void>((resolve) => c.on("close", () => resolve()))
  return { ready: when(/ready/), got: when(/Acquired|Held|Failed/), go: (at: number) => c.stdin.write(`go ${at}\n`), end: () => (c.stdin.end(), closed) }
}

describe("the output folder's lock, contended", () => {
  it("of 6 watchers starting together on a stale lock, exactly one takes it (in each of 5 rounds)", async () => {
    const out = tempDir("lock-race")
    const tmps = Array.from({ length: 6 }, (_, i) => tempDir(`lock-race-tmp${i}`))
    const dead = Number(spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }).stdout)
    const stale = JSON.stringify({ pid: dead, host: os.hostname(), startedAt: "2026-01-01T00:00:00Z" })
    const rounds: Array<ReadonlyArray<string>> = []
    for (let round = 0; round < 5; round++) {
      fs.writeFileSync(path.join(out, "watch.lock"), stale)
      const cs = tmps.map((tmp) => contender(out, tmp))
      await Promise.all(cs.map((c) => c.ready))
      const at = Date.now() + 200
      for (const c of cs) c.go(at)
      // every one answers while the others still hold what they got
      rounds.push(await Promise.all(cs.map((c) => c.got)))
      await Promise.all(cs.map((c) => c.end()))
    }
    for (const got of rounds) expect([...got].sort()).toEqual(["Acquired", "Held", "Held", "Held", "Held", "Held"])
    // nothing left beside it: the stale lock moved aside is removed
    expect(fs.readdirSync(out)).toEqual([])
  }, 120_000)
})

describe("the output folder's lock, its pid another process's now", () => {
  const take = (out: string) => Effect.runPromise(Effect.scoped(Lock.acquire(out)).pipe(Effect.provide(NodeServices.layer)))

  it("is taken over: this process's own pid written before it started (a restarted container), and a live pid that started after the lock", async () => {
    const out = tempDir("lock-reused")
    const lock = (pid: number, startedAt: string) => fs.writeFileSync(path.join(out, "watch.lock"), JSON.stringify({ pid, host: os.hostname(), startedAt }))
    lock(process.pid, "2020-01-01T00:00:00Z")
    expect((await take(out))._tag).toBe("Acquired")
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" })
    try {
      lock(other.pid!, "2020-01-01T00:00:00Z")
      expect((await take(out))._tag).toBe(process.platform === "linux" ? "Acquired" : "Held")
      // written after that process started: it holds
      lock(other.pid!, new Date().toISOString())
      expect(await take(out)).toMatchObject({ _tag: "Held", pid: other.pid })
    } finally {
      other.kill("SIGKILL")
    }
  })
})
