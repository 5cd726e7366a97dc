/**
 * Reading a user's file: only regular files, capped by the bytes actually read, and (with
 * `within`) never through a link out of the allowed folder.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Exit, Fiber } from "effect"
import type { FileSystem } from "effect"
import { PlatformError, SystemError } from "effect/PlatformError"
import { afterAll, describe, expect, it } from "vitest"
import { Files } from "@stseval/formats"
import { startSwapping, swapUnavailable } from "@stseval/vitest-config/swap"

const temps: Array<string> = []
afterAll(() => {
  for (const t of temps) fs.rmSync(t, { recursive: true, force: true })
})
const tmp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-files-"))
  temps.push(dir)
  return dir
}

/** The ReadError of a read that must fail. */
const failure = async (effect: Effect.Effect<Uint8Array, Files.ReadError>): Promise<Files.ReadError> => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) throw new Error(`expected a failure, read ${exit.value.length} bytes`)
  const error = exit.cause.reasons.find((r) => r._tag === "Fail")
  if (error === undefined || error._tag !== "Fail") throw new Error("expected a typed failure")
  return error.error
}

describe("Files.readFile", () => {
  it("reads a regular file's bytes", async () => {
    const dir = tmp()
    fs.writeFileSync(path.join(dir, "a.txt"), "1\n2\n")
    const bytes = await Effect.runPromise(Files.readFile(path.join(dir, "a.txt")))
    expect(new TextDecoder().decode(bytes)).toBe("1\n2\n")
  })

  it("refuses /dev/zero (a character device whose size is 0) at once", async () => {
    const e = await failure(Files.readFile("/dev/zero", { what: "the gold file" }))
    expect(e.reason).toBe("not-a-file")
    expect(e.message).toBe("/dev/zero: the gold file is a character device, not a regular file; it was not read")
  })

  it.skipIf(process.platform === "win32")("refuses a FIFO without blocking on it (no writer ever comes)", async () => {
    const fifo = path.join(tmp(), "gold.fifo")
    execFileSync("mkfifo", [fifo])
    const e = await failure(Files.readFile(fifo))
    expect(e.reason).toBe("not-a-file")
    expect(e.message).toContain("a FIFO (named pipe), not a regular file")
  })

  it("refuses a folder", async () => {
    const e = await failure(Files.readFile(tmp()))
    expect(e.reason).toBe("not-a-file")
  })

  it.skipIf(!fs.existsSync("/proc/self/status"))("caps by the bytes actually read, not the size stat reports", async () => {
    // /proc files are regular files whose stat size is 0 although they hold text.
    expect(fs.statSync("/proc/self/status").size).toBe(0)
    const e = await failure(Files.readFile("/proc/self/status", { maxBytes: 16 }))
    expect(e.reason).toBe("too-large")
    expect(e.message).toContain("more than the limit of 16 bytes")
    const all = await Effect.runPromise(Files.readFile("/proc/self/status", { maxBytes: 1 << 20 }))
    expect(new TextDecoder().decode(all)).toMatch(/^Name:/)
  })

  it("refuses a file one byte over the cap, reads one exactly at it", async () => {
    const dir = tmp()
    fs.writeFileSync(path.join(dir, "ten"), "0123456789")
    expect((await Effect.runPromise(Files.readFile(path.join(dir, "ten"), { maxBytes: 10 }))).length).toBe(10)
    const e = await failure(Files.readFile(path.join(dir, "ten"), { maxBytes: 9 }))
    expect(e.reason).toBe("too-large")
  })

  it("says a missing file is missing", async () => {
    const e = await failure(Files.readFile(path.join(tmp(), "nope.txt"), { what: "the run file" }))
    expect(e.reason).toBe("missing")
    expect(e.message).toMatch(/nope\.txt: the run file does not exist$/)
  })

  it("with `within`: a link out of the folder is refused, a link inside it is read", async () => {
    const root = tmp()
    const outside = path.join(tmp(), "secret.txt")
    fs.writeFileSync(outside, "root:x:0:0\n")
    fs.writeFileSync(path.join(root, "real.txt"), "ok\n")
    fs.symlinkSync(outside, path.join(root, "Team_run1.txt"))
    fs.symlinkSync(path.join(root, "real.txt"), path.join(root, "alias.txt"))
    const e = await failure(Files.readFile(path.join(root, "Team_run1.txt"), { within: root, what: "the run file" }))
    expect(e.reason).toBe("outside")
    expect(e.message).toContain("the run file is a link to a place outside the folder it is read from")
    // where the link points is not shown (on a shared scoring server it is the server's path)
    expect(e.message).not.toContain(fs.realpathSync(path.dirname(outside)))
    expect(e.message).not.toContain("secret")
    const inside = await Effect.runPromise(Files.readFile(path.join(root, "alias.txt"), { within: root }))
    expect(new TextDecoder().decode(inside)).toBe("ok\n")
  })

  it("toIssue maps the reasons onto issue codes", () => {
    const issue = Files.toIssue(new Files.ReadError({ path: "/x", reason: "too-large", message: "/x: the file has ..." }))
    expect(issue).toMatchObject({ severity: "error", code: "too-large", file: "/x", message: "the file has ..." })
    expect(Files.toIssue(new Files.ReadError({ path: "/x", reason: "outside", message: "m" })).code).toBe("outside-folder")
  })

  const noSwap = swapUnavailable()
  it.skipIf(noSwap !== undefined)(
    `never reads through a link swapped in between the check and the open (renameat2 RENAME_EXCHANGE in a loop)${noSwap !== undefined ? `: skipped, ${noSwap}` : ""}`,
    async () => {
      const base = tmp()
      const runs = path.join(base, "runs")
      fs.mkdirSync(runs)
      const secret = path.join(base, "secret.txt")
      fs.writeFileSync(secret, "SECRET:x:0:0:root:/root:/bin/bash\n".repeat(27))
      const run = path.join(runs, "Evil_run1.txt")
      fs.writeFileSync(run, "0.5\n")
      // the decoy is a link to the secret, outside the submissions folder; the helper swaps it with
      // the run file all the time, so each check and each open may see either
      const decoy = path.join(base, "decoy")
      fs.symlinkSync(secret, decoy)
      const within = { path: runs, real: fs.realpathSync(runs) }
      const swapper = await startSwapping(run, decoy)
      const seen = { read: 0, refused: new Map<string, number>() }
      try {
        for (let i = 0; i < 4000; i++) {
          const exit = await Effect.runPromiseExit(Files.readFile(run, { within, what: "the run file" }))
          if (Exit.isSuccess(exit)) {
            expect(new TextDecoder().decode(exit.value)).toBe("0.5\n")
            seen.read++
          } else {
            const reason = exit.cause.reasons.find((r) => r._tag === "Fail")
            const error = reason !== undefined && reason._tag === "Fail" ? reason.error : undefined
            expect(error?.message ?? "").not.toContain("SECRET")
            const key = error?.reason ?? "defect"
            seen.refused.set(key, (seen.refused.get(key) ?? 0) + 1)
          }
        }
      } finally {
        const swaps = await swapper.stop()
        expect(swaps).toBeGreaterThan(1000)
      }
      // the loop did race: some reads saw the run file, some the link
      expect(seen.read).toBeGreaterThan(0)
      expect(seen.refused.get("outside") ?? 0).toBeGreaterThan(0)
      expect([...seen.refused.keys()].every((k) => k === "outside" || k === "unreadable")).toBe(true)
    }
  )
})

describe("Files.isInside", () => {
  /** The answer by `path.relative`, the rule for any two paths: no `..` as the first part. */
  const byRelative = (root: string, child: string) => {
    const rel = path.relative(root, child)
    return !path.isAbsolute(rel) && rel.split(path.sep)[0] !== ".."
  }

  it("compares real paths as strings (issue 36) with the answer `path.relative` gives, for paths of every shape", () => {
    const cases: ReadonlyArray<readonly [string, string, boolean]> = [
      ["/a/b", "/a/b", true],
      ["/a/b", "/a/b/c", true],
      ["/a/b", "/a/bc", false],
      ["/a/b", "/a", false],
      ["/", "/x/y", true],
      ["/a/b/", "/a/b/c", true],
      ["/a/b", "/a/b/../c", false],
      // a name that starts with two dots lies inside (before: refused as `..`)
      ["/a/b", "/a/b/...", true],
      ["/a/b", "/a/b/..x", true],
      ["/a//b", "/a/b/c", true],
      ["/a/b", "/a/b/..", false],
      ["/a/b", "/a/b/.hidden", true]
    ]
    for (const [root, child, inside] of cases) expect([root, child, Files.isInside(root, child)]).toEqual([root, child, inside])
    // every path of a few parts, plain or not, against every other
    const parts = ["a", "b", "ab", ".", "..", "", "..."]
    const paths = ["/"]
    for (const x of parts) for (const y of parts) paths.push(`/${x}/${y}`, `/${x}`, `${x}/${y}`)
    for (const root of paths) for (const child of paths) expect([root, child, Files.isInside(root, child)]).toEqual([root, child, byRelative(root, child)])
  })
})

describe("Files.describe", () => {
  it("says what a full disk or a read-only file system is, with the code, where Effect says Unknown", () => {
    const error = (code: string, path: string) =>
      new PlatformError(new SystemError({ _tag: "Unknown", module: "FileSystem", method: "writeFile", pathOrDescriptor: path, cause: Object.assign(new Error(code), { code }) }))
    expect(error("ENOSPC", "/srv/out/x").message).toBe("Unknown: FileSystem.writeFile (/srv/out/x)")
    expect(Files.describe(error("ENOSPC", "/srv/out/x"))).toBe("/srv/out/x: no space is left on the device (ENOSPC)")
    expect(Files.describe(error("EROFS", "/mnt/ro/board.json"))).toBe("/mnt/ro/board.json: the file system is read-only (EROFS)")
    expect(Files.describe(error("EDQUOT", "/home/x"))).toBe("/home/x: the disk quota is used up (EDQUOT)")
    // an error with no system code keeps its own message
    expect(Files.describe(new Error("something else"))).toBe("something else")
  })

  it.skipIf(!fs.existsSync("/dev/full"))("a write to /dev/full (ENOSPC) through Effect's file system, in words", async () => {
    const { FileSystem } = await import("effect")
    const NodeServices = await import("@effect/platform-node/NodeServices")
    const exit = await Effect.runPromiseExit(
      Effect.gen(function* () {
        const f = yield* FileSystem.FileSystem
        yield* f.writeFileString("/dev/full", "x")
      }).pipe(Effect.provide(NodeServices.layer))
    )
    if (Exit.isSuccess(exit)) throw new Error("the write to /dev/full succeeded")
    const reason = exit.cause.reasons.find((r) => r._tag === "Fail")
    expect(reason !== undefined && reason._tag === "Fail" ? Files.describe(reason.error) : "").toBe("/dev/full: no space is left on the device (ENOSPC)")
  })
})

describe("Files.writeFolder: a folder whole or not at all (issue 22)", () => {
  const write = <E>(target: string, fill: (dir: string) => Effect.Effect<void, E, FileSystem.FileSystem>) =>
    Files.writeFolder(target, fill).pipe(Effect.provide(NodeServices.layer))
  const files = (dir: string, name: string) =>
    Effect.sync(() => {
      fs.writeFileSync(path.join(dir, name), "x\n")
    })

  it("writes every file, then the folder appears at once under its name; an empty folder there is replaced", async () => {
    const parent = tmp()
    await Effect.runPromise(write(path.join(parent, "run"), (dir) => Effect.andThen(files(dir, "a.txt"), files(dir, "b.txt"))))
    expect(fs.readdirSync(path.join(parent, "run")).sort()).toEqual(["a.txt", "b.txt"])
    fs.mkdirSync(path.join(parent, "empty"))
    await Effect.runPromise(write(path.join(parent, "empty"), (dir) => files(dir, "c.txt")))
    expect(fs.readdirSync(path.join(parent, "empty"))).toEqual(["c.txt"])
    expect(fs.readdirSync(parent).sort()).toEqual(["empty", "run"])
  })

  it("a fill that fails half-way leaves nothing, under either name", async () => {
    const parent = tmp()
    const exit = await Effect.runPromiseExit(write(path.join(parent, "run"), (dir) => Effect.andThen(files(dir, "a.txt"), Effect.fail("disk full"))))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(fs.readdirSync(parent)).toEqual([])
  })

  it("stopped half-way (the fiber interrupted, as Ctrl-C does) leaves nothing", async () => {
    const parent = tmp()
    let started!: () => void
    const writing = new Promise<void>((resolve) => (started = resolve))
    const fiber = Effect.runFork(write(path.join(parent, "run"), (dir) => Effect.andThen(files(dir, "a.txt"), Effect.andThen(Effect.sync(() => started()), Effect.never))))
    await writing
    expect(fs.readdirSync(parent)).toHaveLength(1)
    await Effect.runPromise(Fiber.interrupt(fiber))
    expect(fs.readdirSync(parent)).toEqual([])
  })

  it("a hidden folder a killed writer left (kill -9: no clean-up runs) is removed by the next write; a living writer's is kept", async () => {
    const parent = tmp()
    // a process that is gone: the pid of a child that has exited
    const dead = Number(execFileSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], { encoding: "utf8" }))
    const staleNamed = `.run.writing-${dead}-AbC123`
    fs.mkdirSync(path.join(parent, staleNamed))
    fs.writeFileSync(path.join(parent, staleNamed, "half.txt"), "x\n")
    const living = `.run.writing-${process.pid}-XyZ789`
    fs.mkdirSync(path.join(parent, living))
    await Effect.runPromise(write(path.join(parent, "run"), (dir) => files(dir, "a.txt")))
    expect(fs.readdirSync(parent).sort()).toEqual([living, "run"])
  })

  it("a folder that is not empty is never replaced nor touched: the write fails", async () => {
    const parent = tmp()
    fs.mkdirSync(path.join(parent, "run"))
    fs.writeFileSync(path.join(parent, "run", "mine.txt"), "keep\n")
    const exit = await Effect.runPromiseExit(write(path.join(parent, "run"), (dir) => files(dir, "a.txt")))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(fs.readdirSync(parent)).toEqual(["run"])
    expect(fs.readdirSync(path.join(parent, "run"))).toEqual(["mine.txt"])
  })
})
