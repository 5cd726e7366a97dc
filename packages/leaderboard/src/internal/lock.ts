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
 * Take the lock of `out`, or say who holds it: `Held` names the live watcher (this host) that
 * writes there. Released (removed, if still ours) when the scope closes.
 */
export const acquire = (out: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const file = path.join(out, files.lock)
    // the twin first: it holds while the first watcher lives, whatever became of the output folder
    const twin = twinOf(out)
    if (twin !== undefined) {
      const text = yield* fs.readFileString(twin).pipe(Effect.option)
      const held = text._tag === "Some" ? decodeLock(text.value) : undefined
      if (held?._tag === "Success" && held.success.host === os.hostname() && alive(held.success.pid)) {
        return { _tag: "Held" as const, pid: held.success.pid, host: held.success.host, startedAt: held.success.startedAt }
      }
    }
    for (let attempt = 0; attempt < 2; attempt++) {
      const created = yield* fs.writeFileString(file, contents(), { flag: "wx" }).pipe(Effect.result)
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
      const text = yield* fs.readFileString(file).pipe(Effect.option)
      const held = text._tag === "Some" ? decodeLock(text.value) : undefined
      // another host's lock (a shared file system) cannot be checked: it holds until removed
      if (held?._tag === "Success" && (held.success.host !== os.hostname() || alive(held.success.pid))) {
        return { _tag: "Held" as const, pid: held.success.pid, host: held.success.host, startedAt: held.success.startedAt }
      }
      if (text._tag === "None" && attempt > 0) return { _tag: "Failed" as const, reason: created.failure.message }
      // a stale lock (its process is gone, or unreadable): take it over
      yield* fs.remove(file, { force: true }).pipe(Effect.ignore)
    }
    return { _tag: "Failed" as const, reason: `cannot create ${file}` }
  })
