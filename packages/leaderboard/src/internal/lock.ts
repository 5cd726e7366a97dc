/**
 * The output folder's lock (`watch.lock`: pid, host, start time): one watcher writes a folder.
 * Two watchers on one folder flipped the board between their views and deleted each other's
 * temporary files. A lock whose process is gone (killed, crashed, machine restarted) is taken over;
 * another host's lock holds until it is removed.
 *
 * The lock has a twin outside the output folder, in a folder of this user's own (`<tmp>/stseval-<uid>`,
 * mode 0700, checked before use), named after the output folder's path: removing the output folder
 * removes `watch.lock` with it, and a second watcher started then would write beside the first.
 *
 * @internal
 */
import { createHash } from "node:crypto"
import * as nodeFs from "node:fs"
import * as os from "node:os"
import * as nodePath from "node:path"
import { Effect, FileSystem, Path, Schema } from "effect"
import { Files } from "@stseval/formats"
import { files } from "./session.js"

const LockFile = Schema.fromJsonString(Schema.Struct({ pid: Schema.Int, host: Schema.String, startedAt: Schema.String }))
const decodeLock = Schema.decodeUnknownResult(LockFile)

const contents = () => JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: new Date().toISOString() })

/** Whether process `pid` exists (EPERM: it exists, owned by someone else). */
const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

/**
 * This user's own folder for the watcher's lock twins, made if needed: a folder (not a link),
 * owned by this user, that no one else may write (mode 0700); undefined when it cannot be had
 * (another user made it, or it is open to others), and the twin is then not used.
 */
const userFolder = (): string | undefined => {
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined
  const dir = nodePath.join(os.tmpdir(), `stseval-${uid ?? os.userInfo().username}`)
  try {
    nodeFs.mkdirSync(dir, { mode: 0o700 })
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") return undefined
  }
  try {
    const info = nodeFs.lstatSync(dir)
    if (!info.isDirectory() || (uid !== undefined && info.uid !== uid) || (process.platform !== "win32" && (info.mode & 0o077) !== 0)) return undefined
    return dir
  } catch {
    return undefined
  }
}

/** The twin of `out`'s lock, outside it (see the module's comment), or undefined without a folder of one's own. */
const twinOf = (out: string): string | undefined => {
  const dir = userFolder()
  return dir === undefined ? undefined : nodePath.join(dir, `watch-${createHash("sha256").update(nodePath.resolve(out)).digest("hex").slice(0, 32)}.lock`)
}

/** Write this process's lock (after the folder was made again). */
export const writeLock = (out: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    yield* fs.writeFileString(path.join(out, files.lock), contents())
  })

/**
 * Whether the lock's process is running: its pid exists on this host (this process's pid counts
 * only for a lock written since it started: a watcher restarted in a container often gets the pid
 * its former self had), and, where the system says when a process started (Linux), it started
 * before the lock was written (else the pid was reused by another process).
 */
const running = (held: { readonly pid: number; readonly startedAt: string }): boolean => {
  const written = Date.parse(held.startedAt)
  // this pid: another watcher of this process, or this process's former self (written before it started)
  if (held.pid === process.pid) return Number.isNaN(written) || written >= performance.timeOrigin - 1000
  if (!alive(held.pid)) return false
  const started = startOf(held.pid)
  // a minute of slack: the start is computed from the boot time, which moves when the clock is set
  return started === undefined || Number.isNaN(written) || started <= written + 60_000
}

/** When process `pid` started (ms since the epoch), from /proc on Linux; undefined elsewhere. */
const startOf = (pid: number): number | undefined => {
  if (process.platform !== "linux") return undefined
  try {
    // the fields after the command (which may hold spaces and parentheses): starttime is the 20th, in clock ticks since boot
    const stat = nodeFs.readFileSync(`/proc/${pid}/stat`, "utf8")
    const ticks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19])
    const boot = Number(/^btime (\d+)$/m.exec(nodeFs.readFileSync("/proc/stat", "utf8"))?.[1])
    // USER_HZ is 100 on every Linux Node runs on
    return Number.isFinite(ticks) && Number.isFinite(boot) ? boot * 1000 + ticks * 10 : undefined
  } catch {
    return undefined
  }
}

/**
 * Take the lock of `out`, or say who holds it: `Held` names the live watcher (this host) that
 * writes there. Released (removed, if still ours) when the scope closes.
 *
 * The lock is written whole to a file of this process's own and linked to its name (`link` never
 * replaces, and a reader never sees it half-written), so of watchers starting together one gets it. A stale
 * lock (its process gone) was removed by whoever judged it stale: two watchers judging it together
 * removed it in turn, the second removing the first's new lock, and both ran (2 of 21 trials). Now
 * a stale lock is removed only under a second lock, the folder `watch.lock.takeover` (`mkdir` is
 * atomic: one process holds it), and only when it still holds what was judged stale: a lock is only
 * ever created by `link` and removed by its own process or under the takeover, so between that check
 * and the removal nobody can have replaced it. A takeover folder left by a process killed in those
 * few milliseconds is removed after 10 s.
 */
export const acquire = (out: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const file = path.join(out, files.lock)
    const takeover = `${file}.takeover`
    // the twin first: it holds while the first watcher lives, whatever became of the output folder
    const twin = twinOf(out)
    if (twin !== undefined) {
      const text = yield* fs.readFileString(twin).pipe(Effect.option)
      const held = text._tag === "Some" ? decodeLock(text.value) : undefined
      if (held?._tag === "Success" && held.success.host === os.hostname() && running(held.success)) {
        return { _tag: "Held" as const, pid: held.success.pid, host: held.success.host, startedAt: held.success.startedAt }
      }
    }
    let reason = `cannot create ${file}`
    let missing = 0
    // each turn either creates the lock, finds it held, or waits a moment for another's takeover: 4 s at most
    for (let attempt = 0; attempt < 200; attempt++) {
      // written whole beside it, then linked to its name (never replaces): a lock is never seen half-written
      const temp = path.join(out, `.${files.lock}.${process.pid}.tmp`)
      const created = yield* fs.writeFile(temp, new TextEncoder().encode(contents())).pipe(
        Effect.andThen(fs.link(temp, file)),
        Effect.ensuring(fs.remove(temp, { force: true }).pipe(Effect.ignore)),
        Effect.result
      )
      if (created._tag === "Success") {
        const release = (lock: string) =>
          fs.readFileString(lock).pipe(
            Effect.flatMap((text) => {
              const held = decodeLock(text)
              return held._tag === "Success" && held.success.pid === process.pid ? fs.remove(lock) : Effect.void
            }),
            Effect.ignore
          )
        yield* Effect.addFinalizer(() => release(file))
        if (twin !== undefined) {
          yield* fs.writeFileString(twin, contents(), { mode: 0o600 }).pipe(Effect.ignore)
          yield* Effect.addFinalizer(() => release(twin))
        }
        return { _tag: "Acquired" as const }
      }
      // the system's reason in words ("no space is left on the device (ENOSPC)"), not Effect's "Unknown"
      reason = Files.describe(created.failure)
      const text = yield* fs.readFileString(file).pipe(Effect.option)
      if (text._tag === "None") {
        // removed meanwhile: try again; not there at all (the create failed for its own reason): say why
        if (++missing > 2) break
        continue
      }
      const held = decodeLock(text.value)
      // another host's lock (a shared file system) cannot be checked: it holds until removed
      if (held._tag === "Success" && (held.success.host !== os.hostname() || running(held.success))) {
        return { _tag: "Held" as const, pid: held.success.pid, host: held.success.host, startedAt: held.success.startedAt }
      }
      // one that does not decode and is new may be an older watcher's being written (it wrote in place)
      if (held._tag === "Failure" && (yield* ageOf(file)) < 2000) {
        yield* Effect.sleep(20)
        continue
      }
      // stale (its process is gone, or unreadable): removed under the takeover lock, if still the same
      const mine = yield* fs.makeDirectory(takeover).pipe(Effect.result)
      if (mine._tag === "Failure") {
        if ((yield* ageOf(takeover)) > 10_000) yield* fs.remove(takeover, { recursive: true }).pipe(Effect.ignore)
        yield* Effect.sleep(20)
        continue
      }
      const again = yield* fs.readFileString(file).pipe(Effect.option)
      if (again._tag === "Some" && again.value === text.value) yield* fs.remove(file, { force: true }).pipe(Effect.ignore)
      yield* fs.remove(takeover, { recursive: true }).pipe(Effect.ignore)
    }
    return { _tag: "Failed" as const, reason }
  })

/** ms since a file was last changed (0 when it cannot be told). */
const ageOf = (file: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    return yield* fs.stat(file).pipe(
      Effect.map((i) => (i.mtime._tag === "Some" ? Date.now() - i.mtime.value.getTime() : 0)),
      Effect.orElseSucceed(() => 0)
    )
  })
