/**
 * The watcher service as an organiser deploys it: the one-file executable alone in an empty folder,
 * run with nothing but `node`, from a config file; its status endpoint; a run landing while it
 * watches; SIGTERM stopping it cleanly; and the container definition running that same file.
 * Figures: the official R scorer's (../shared/reference/sick-posttask-runs.official-R.tsv).
 */
import { spawn } from "node:child_process"
import type { ChildProcess } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as path from "node:path"
import { Status } from "@stseval/leaderboard"
import { runProcess } from "@stseval/vitest-config/process"
import { scratchDir } from "@stseval/vitest-config/temp"
import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as WatcherConfig from "../src/WatcherConfig.js"
import * as Bundle from "@stseval/bundle"
import { cacheRejected, expectScorerBody, scorerCache } from "@stseval/vitest-config/bodies"
import { bundle } from "../scripts/bundle.js"

const appDir = path.resolve(import.meta.dirname, "..")
const examples = path.resolve(appDir, "../../examples/sick2014")

const work = scratchDir("watcher-test")
let exe: string
const env = () => ({ PATH: path.dirname(process.execPath), TMPDIR: work, NO_COLOR: "1" })

beforeAll(async () => {
  fs.mkdirSync(path.join(work, "alone"))
  exe = (await bundle({ outfile: path.join(work, "alone", "stseval-watcher.mjs") })).outfile
}, 90_000)

/** A contest folder: the gold, a submissions folder with the given runs, and a config. */
const contest = (name: string, runs: ReadonlyArray<string>, extra = ""): string => {
  const dir = path.join(work, name)
  fs.mkdirSync(path.join(dir, "submissions"), { recursive: true })
  for (const r of runs) fs.copyFileSync(path.join(examples, "submissions", r), path.join(dir, "submissions", r))
  const file = path.join(dir, "watcher.yaml")
  fs.writeFileSync(file, `task: sick2014\ngold: ${path.join(examples, "SICK_test_annotated.txt")}\nsubmissions: submissions\nout: board\ndebounce: 20\nrescan: 200\n${extra}`)
  return file
}

const decodeStatus = Schema.decodeUnknownSync(Status.Status)

/** Wait until `check` holds (polling), or fail after `ms` saying what was awaited. */
const until = async <A>(what: string, check: () => Promise<A | undefined> | A | undefined, ms = 30_000): Promise<A> => {
  const end = Date.now() + ms
  for (;;) {
    const a = await check()
    if (a !== undefined) return a
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

const get = async (url: string) => {
  try {
    const r = await fetch(url)
    return { status: r.status, text: await r.text(), type: r.headers.get("content-type") }
  } catch {
    return undefined
  }
}

describe("the config file", () => {
  it("resolves paths from its own folder and names every bad key", () => {
    const file = path.join(work, "cfg", "watcher.yaml")
    const ok = WatcherConfig.parse("task: sick2014\nsubmissions: subs\nout: ../board\nstatus: { port: 8080 }\n", file)
    expect(ok).toMatchObject({ _tag: "Ok", config: { task: "sick2014", submissions: path.join(work, "cfg", "subs"), out: path.join(work, "board"), status: { port: 8080 } } })
    const bad = WatcherConfig.parse("task: sick2014\nsubmissions: subs\nstatus: { port: 70000 }\ndebounse: 10\n", file)
    expect(bad._tag).toBe("Error")
    const errors = bad._tag === "Error" ? bad.errors : []
    expect(errors).toContain(`${file}: out: missing (required)`)
    expect(errors.some((e) => e.startsWith(`${file}: status.port: `) && e.endsWith("found 70000"))).toBe(true)
    expect(errors.some((e) => e.startsWith(`${file}: debounse: not an option of this file; expected one of the keys task, submissions, out, gold,`))).toBe(true)
    expect(WatcherConfig.parse("- a list\n", file)).toEqual({ _tag: "Error", errors: [`${file}: expected an object with at least task, submissions and out, found a list`] })
  })

  it("the shipped example config is valid and its status port is the container's", () => {
    const file = path.join(appDir, "watcher.example.yaml")
    const parsed = WatcherConfig.parse(fs.readFileSync(file, "utf8"), file)
    expect(parsed._tag).toBe("Ok")
    const port = parsed._tag === "Ok" ? parsed.config.status?.port : undefined
    const dockerfile = fs.readFileSync(path.join(appDir, "Dockerfile"), "utf8")
    expect(dockerfile).toContain(`EXPOSE ${port}`)
    expect(dockerfile).toContain(`http://127.0.0.1:${port}/healthz`)
    // the container's port is reached from outside it: the example listens on every interface
    expect(parsed._tag === "Ok" ? parsed.config.status?.host : undefined).toBe("0.0.0.0")
  })
})

describe("the service (one file, only node)", () => {
  let child: ChildProcess | undefined
  afterAll(() => child?.kill("SIGKILL"))

  it("serves its status, scores a run that lands while it watches, and stops cleanly on SIGTERM with 143", async () => {
    const file = contest("live", ["Insight_run1primary.txt", "Baseline-overlap_run1primary.txt"], "status: { port: 0, host: 127.0.0.1 }\n")
    const dir = path.dirname(file)
    const proc = spawn(process.execPath, [exe, "watcher.yaml"], { cwd: dir, env: env(), stdio: ["ignore", "pipe", "pipe"] })
    child = proc
    let stdout = ""
    let stderr = ""
    proc.stdout.on("data", (d: Buffer) => (stdout += d.toString()))
    proc.stderr.on("data", (d: Buffer) => (stderr += d.toString()))
    const exited = new Promise<number | null>((resolve) => proc.on("close", (code) => resolve(code)))

    const base = await until("the status address", () => /status: (http:\/\/[^/\s]+)\/healthz/.exec(stdout)?.[1])
    const health = await until("/healthz to answer 200", async () => {
      const r = await get(`${base}/healthz`)
      return r?.status === 200 ? r : undefined
    })
    expect(health.text).toMatch(/^ok: (starting|watching)/)
    const first = await until("both runs scored", async () => {
      const r = await get(`${base}/status`)
      if (r?.status !== 200) return undefined
      const s = decodeStatus(JSON.parse(r.text))
      return Object.values(s.runs).filter((x) => x.status === "scored").length === 2 ? s : undefined
    })
    expect(first.task).toBe("sick2014")

    // a run lands while it watches
    fs.copyFileSync(path.join(examples, "submissions/MeaningFactory_run1primary.txt"), path.join(dir, "submissions/MeaningFactory_run1primary.txt"))
    await until("the new run on the public board", async () => {
      const r = await get(`${base}/leaderboard.md`)
      return r?.status === 200 && r.text.includes("MeaningFactory") ? r : undefined
    })
    const board = JSON.parse((await get(`${base}/leaderboard.json`))?.text ?? "{}") as unknown
    expect(JSON.stringify(board)).toContain("0.82638") // r of MeaningFactory, official R: 0.826381603887488
    const page = await get(`${base}/leaderboard.html`)
    expect(page?.type).toContain("text/html")
    // the version the served page polls to reload itself is served beside it, and names the page's board
    const version = await get(`${base}/leaderboard.public.version.js`)
    expect(version?.type).toContain("text/javascript")
    const named = /stsevalBoardVersion\("([0-9a-f]{16})"\)/.exec(version?.text ?? "")?.[1]
    expect(named).toBeDefined()
    expect(page?.text).toContain(`var mine="${named}"`)
    expect((await get(`${base}/nothing`))?.status).toBe(404)

    proc.kill("SIGTERM")
    // the CLI's stop rule (@stseval/app/signals): 128 + 15, as `docker stop` and a shell expect
    expect(await exited).toBe(143)
    expect(stderr).toBe("")
    expect(stdout).toContain("stopped; state flushed")
    const status = decodeStatus(JSON.parse(fs.readFileSync(path.join(dir, "board/status.json"), "utf8")))
    expect(status.phase).toBe("stopped")
    expect(Object.keys(status.runs).sort()).toEqual(["Baseline-overlap_run1primary.txt", "Insight_run1primary.txt", "MeaningFactory_run1primary.txt"])
    expect(JSON.parse(fs.readFileSync(path.join(dir, "board/state.json"), "utf8"))).toMatchObject({ task: "sick2014" })
    // the endpoint closed with it
    expect(await get(`${base}/healthz`)).toBeUndefined()
    child = undefined
  })

  it("bounded: 150 idle connections under a 96 open-file limit leave /healthz answering and a run that lands scored; files sent at once capped; 127.0.0.1 by default", async () => {
    const file = contest("crowd", ["Insight_run1primary.txt"], "status: { port: 0, connections: 16, requests: 1, headersTimeout: 60000, idleTimeout: 60000 }\n")
    const dir = path.dirname(file)
    // the usual limit is 1,024 open files against 1,100 connections: the same, smaller
    const proc = spawn("/bin/sh", ["-c", `ulimit -n 96 && exec "${process.execPath}" "${exe}" watcher.yaml`], { cwd: dir, env: env(), stdio: ["ignore", "pipe", "pipe"] })
    child = proc
    let stdout = ""
    proc.stdout.on("data", (d: Buffer) => (stdout += d.toString()))
    const exited = new Promise<number | null>((resolve) => proc.on("close", (code) => resolve(code)))
    const sockets: Array<net.Socket> = []
    try {
      // no host in the config: this machine only
      const base = await until("the status address", () => /status: (http:\/\/[^/\s]+)\/healthz/.exec(stdout)?.[1])
      expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const port = Number(new URL(base).port)
      await until("the first run scored", async () => {
        const r = await get(`${base}/status`)
        return r?.status === 200 && r.text.includes('"status": "scored"') ? r : undefined
      })
      // 150 connections that never send a request, opened one after another (to 127.0.0.1 only)
      for (let i = 0; i < 150; i++) {
        const socket = net.connect({ host: "127.0.0.1", port })
        socket.on("error", () => {})
        sockets.push(socket)
        await new Promise<void>((resolve) => {
          socket.once("connect", () => resolve())
          socket.once("close", () => resolve())
          setTimeout(resolve, 2000)
        })
      }
      const health = await until("/healthz under 150 idle connections", async () => {
        const r = await get(`${base}/healthz`)
        return r?.status === 200 ? r : undefined
      }, 15_000)
      expect(health.text).toMatch(/^ok: watching/)
      // a run lands meanwhile: read and scored, never "too many open files"
      fs.copyFileSync(path.join(examples, "submissions/MeaningFactory_run1primary.txt"), path.join(dir, "submissions/MeaningFactory_run1primary.txt"))
      const scored = await until("the new run scored", async () => {
        const r = await get(`${base}/status`)
        if (r?.status !== 200) return undefined
        const run = decodeStatus(JSON.parse(r.text)).runs["MeaningFactory_run1primary.txt"]
        return run !== undefined && (run.status === "scored" || run.status === "failed") ? run : undefined
      })
      expect(scored.status).toBe("scored")
      // the status may say so before the board does (a board write paced after a burst): the board
      // with the run, so that no write of the watcher's replaces the file written below (CI, once)
      await until("the new run on the public board", async () => {
        const r = await get(`${base}/leaderboard.json`)
        return r?.status === 200 && r.text.includes("MeaningFactory") ? r : undefined
      })
      // a board file is streamed, one at a time here (requests: 1): a reader that does not read
      // holds its slot, and a second reader is told to come back (never queued in memory)
      const board = path.join(dir, "board", "leaderboard.public.json")
      fs.writeFileSync(board, `[${'"x",'.repeat(4 * 1024 * 1024)}"x"]\n`)
      const stalled = net.connect({ host: "127.0.0.1", port })
      sockets.push(stalled)
      stalled.on("error", () => {})
      let head = ""
      await new Promise<void>((resolve) => {
        stalled.on("data", (d: Buffer) => {
          head += d.toString("latin1")
          if (head.includes("\r\n\r\n")) {
            stalled.pause()
            resolve()
          }
        })
        stalled.write("GET /leaderboard.json HTTP/1.1\r\nHost: x\r\n\r\n")
      })
      expect(head).toMatch(/^HTTP\/1\.1 200/)
      expect(head.toLowerCase()).toContain(`content-length: ${fs.statSync(board).size}`)
      const second = await get(`${base}/leaderboard.json`)
      expect(second?.status).toBe(503)
      expect(second?.text).toContain("busy")
      expect((await get(`${base}/healthz`))?.status).toBe(200)
    } finally {
      for (const s of sockets) s.destroy()
      proc.kill("SIGTERM")
    }
    expect(await exited).toBe(143)
    child = undefined
  })

  it("stops cleanly on SIGINT (Ctrl-C) with 130", async () => {
    const file = contest("ctrl-c", ["Insight_run1primary.txt"], "status: { port: 0, host: 127.0.0.1 }\n")
    const proc = spawn(process.execPath, [exe, "watcher.yaml"], { cwd: path.dirname(file), env: env(), stdio: ["ignore", "pipe", "pipe"] })
    child = proc
    let stdout = ""
    proc.stdout.on("data", (d: Buffer) => (stdout += d.toString()))
    const exited = new Promise<number | null>((resolve) => proc.on("close", (code) => resolve(code)))
    const base = await until("the status address", () => /status: (http:\/\/[^/\s]+)\/healthz/.exec(stdout)?.[1])
    await until("/healthz to answer 200", async () => ((await get(`${base}/healthz`))?.status === 200 ? true : undefined))
    proc.kill("SIGINT")
    expect(await exited).toBe(130)
    expect(stdout).toContain("stopped; state flushed")
    child = undefined
  })

  it("--once scores what is there and exits 0; a bad config is one line per problem and exit 2", async () => {
    const file = contest("once", ["Insight_run1primary.txt"])
    const r = await runProcess(process.execPath, [exe, file, "--once"], { cwd: work, env: env() })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain("1 run(s): 1 scored, 0 failed, 1 ranked")
    const bad = path.join(work, "bad.yaml")
    fs.writeFileSync(bad, `task: sick2014\ngold: ${path.join(examples, "SICK_test_annotated.txt")}\nsubmissions: nowhere\nout: board\n`)
    const b = await runProcess(process.execPath, [exe, bad], { cwd: work, env: env() })
    expect(b.code).toBe(2)
    expect(b.stderr).toMatch(/^error: .*nowhere.*no such file or folder/)
  })
})

describe("the scorer-only body", () => {
  it("a run too large for the watcher's own thread is read by a scorer running the scorer-only body the file carries, and scores as the program would", async () => {
    // the two bodies, as the loader reads them back; none of the service: its status endpoint and board pages are not in it
    // (about half: reading and checking runs, and Effect, are most of the service too)
    const { worker: scorerBody, program: programBody } = expectScorerBody(Bundle.bodies(fs.readFileSync(exe, "utf8")), { programOnly: "/healthz", under: 0.6 })
    // a run over 1 MiB (its figures padded with zeros: the same numbers) goes to a scorer thread
    const file = contest("scorer-body", ["MeaningFactory_run1primary.txt"])
    const dir = path.dirname(file)
    const lines = fs.readFileSync(path.join(examples, "submissions/MeaningFactory_run1primary.txt"), "utf8").split("\n")
    const padded = [lines[0], ...lines.slice(1).map((l) => (l === "" ? l : `${l}${"0".repeat(250)}`))].join("\n")
    expect(Buffer.byteLength(padded)).toBeGreaterThan(1024 * 1024)
    fs.writeFileSync(path.join(dir, "submissions/Padded_run1primary.txt"), padded)
    const tmp = path.join(work, "tmp-scorer-body")
    fs.mkdirSync(tmp)
    const r = await runProcess(process.execPath, [exe, "watcher.yaml", "--once"], { cwd: dir, env: { ...env(), TMPDIR: tmp } })
    expect(r.code, r.stderr).toBe(0)
    const board = JSON.parse(fs.readFileSync(path.join(dir, "board/leaderboard.json"), "utf8")) as {
      readonly runs: ReadonlyArray<{ readonly entry: string; readonly status: string; readonly official: ReadonlyArray<{ readonly value: number | null }> }>
    }
    const figures = (entry: string) => board.runs.find((x) => x.entry === entry)?.official.map((o) => o.value)
    expect(board.runs.map((x) => x.status)).toEqual(["scored", "scored"])
    expect(figures("Padded_run1primary.txt")?.[0]).toBeCloseTo(0.826381603887488, 12) // official R
    expect(figures("Padded_run1primary.txt")).toEqual(figures("MeaningFactory_run1primary.txt"))
    // the scorer's code cache is V8's for the scorer body, not for the program (V8 rejects a cache
    // made from another source)
    expect(cacheRejected({ program: programBody, worker: scorerBody }, scorerCache(tmp))).toEqual({ worker: false, program: true })
  }, 60_000)
})
