/**
 * The output folder's lock (`watch.lock`: pid, host, start time): one watcher writes a folder.
 * Two watchers on one folder flipped the board between their views and deleted each other's
 * temporary files. A lock whose process is gone (killed, crashed, machine restarted) is taken over;
 * another host's lock holds until it is removed.
 *
 * @internal
 */
import * as os from "node:os"
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
    for (let attempt = 0; attempt < 2; attempt++) {
      const created = yield* fs.writeFileString(file, contents(), { flag: "wx" }).pipe(Effect.result)
      if (created._tag === "Success") {
        yield* Effect.addFinalizer(() =>
          fs.readFileString(file).pipe(
            Effect.flatMap((text) => {
              const held = decodeLock(text)
              return held._tag === "Success" && held.success.pid === process.pid ? fs.remove(file) : Effect.void
            }),
            Effect.ignore
          )
        )
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
