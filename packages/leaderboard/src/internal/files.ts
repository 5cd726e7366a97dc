/**
 * File-system helpers of the watcher: atomic writes, run signatures (size + mtime of every file of a
 * run, to tell when a run has stopped changing) and content hashes.
 */
import { createHash } from "node:crypto"
import { Effect, FileSystem, Option, Path } from "effect"
import { Submissions } from "@stseval/formats"
import type { Registry } from "@stseval/formats"

/** Names the watcher never treats as runs: those `discover` leaves out too (`Submissions.isIgnoredEntry`). */
export const isIgnoredName = Submissions.isIgnoredEntry

/** `X.run.json` beside a run is metadata of run `X`, not a run. */
export const RUN_JSON_SUFFIX = Submissions.RUN_JSON_SUFFIX

let tempCounter = 0

/**
 * Write `data` to `file` atomically: write a temporary file in the same directory, then rename it
 * over the target (rename is atomic within one file system, so a reader sees the old or the new
 * file, never half of one). Uninterruptible, so Ctrl-C never leaves a half-written target.
 */
export const writeAtomic = (file: string, data: string | Uint8Array) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${++tempCounter}.tmp`)
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data
    // a write that fails half-way (disk full) must not leave its temp file behind either
    yield* fs.writeFile(temp, bytes).pipe(Effect.andThen(fs.rename(temp, file)), Effect.tapError(() => fs.remove(temp).pipe(Effect.ignore)))
  }).pipe(Effect.uninterruptible)

/** Temporary files left behind by a writer that was killed between write and rename. */
export const isTempFile = (name: string): boolean => name.startsWith(".") && name.endsWith(".tmp")

const MAX_DEPTH = 3

/**
 * A run's signature: every file's relative path, size and mtime (ms), plus the `X.run.json` beside
 * it. Equal signatures taken a debounce window apart mean the run has stopped changing. `"absent"`
 * when the run does not exist. `listed`: the folder's names, when the caller has just read them (the
 * rescan): a `run.json` not among them is not looked for (a failed stat per run and name, every
 * rescan, was most of an idle watcher's time at 500 runs). `seenIn` gives the names a signature holds.
 */
export const signature = (folder: string, entry: string, edition: Registry.TaskEdition, listed?: { readonly has: (name: string) => boolean }) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const full = path.join(folder, entry)
    const parts: Array<string> = []
    const one = (rel: string, info: FileSystem.File.Info) =>
      `${rel}:${info.type === "Directory" ? "d" : Number(info.size)}:${Option.getOrElse(Option.map(info.mtime, (d) => d.getTime()), () => 0)}`
    const info = yield* fs.stat(full).pipe(Effect.option)
    if (Option.isNone(info)) return { sig: "absent", mtime: 0 }
    let mtime = Option.getOrElse(Option.map(info.value.mtime, (d) => d.getTime()), () => 0)
    if (info.value.type === "Directory") {
      const walk = (dir: string, rel: string, depth: number): Effect.Effect<void> =>
        Effect.gen(function* () {
          const names = (yield* fs.readDirectory(dir).pipe(Effect.orElseSucceed(() => [] as Array<string>))).sort()
          for (const name of names) {
            const sub = yield* fs.stat(path.join(dir, name)).pipe(Effect.option)
            if (Option.isNone(sub)) continue
            const r = rel === "" ? name : `${rel}/${name}`
            parts.push(one(r, sub.value))
            // a folder's mtime too: a file copied in with its old mtime kept (`cp -p`) still changes it
            mtime = Math.max(mtime, Option.getOrElse(Option.map(sub.value.mtime, (d) => d.getTime()), () => 0))
            if (sub.value.type === "Directory" && depth < MAX_DEPTH) yield* walk(path.join(dir, name), r, depth + 1)
          }
        })
      yield* walk(full, "", 1)
    } else {
      parts.push(one(".", info.value))
    }
    for (const name of runJsonNames(entry, edition)) {
      if (listed !== undefined && !listed.has(name)) continue
      const beside = yield* fs.stat(path.join(folder, name)).pipe(Effect.option)
      if (Option.isSome(beside)) parts.push(one(name, beside.value))
    }
    return { sig: `${info.value.type}|${parts.join("|")}`, mtime }
  })

/**
 * The content hash of a loaded run: SHA-256 over its kind, name, metadata, every file's name and
 * bytes, and the issues found while loading (a zip that does not open hashes differently from one
 * that does). Everything a score depends on is in it, so equal hashes can share a cached score.
 */
export const hashSubmission = (entry: string, sub: Submissions.Submission): string => {
  const h = createHash("sha256")
  const { id: _id, ...meta } = sub.meta
  h.update(`${sub.kind}\0${entry}\0${JSON.stringify(meta)}\0`)
  for (const f of sub.files) {
    h.update(`${f.name}\0${f.bytes.length}\0`)
    h.update(f.bytes)
  }
  h.update(JSON.stringify(sub.issues))
  return h.digest("hex")
}

/** SHA-256 of a string, hex. */
export const sha256 = (s: string | Uint8Array): string => createHash("sha256").update(s).digest("hex")

/** A run's run.json beside it, under either name `discover` reads (`Team_run2.run.json`, `Team_run2.jsonl.run.json`), in the order it reads them. */
const runJsonNames = (entry: string, edition: Registry.TaskEdition): ReadonlyArray<string> =>
  [...new Set([Submissions.stripExtension(entry, edition), entry])].map((stem) => `${stem}${RUN_JSON_SUFFIX}`)

/**
 * The run.json files a run's signature found beside it (`Submissions.DiscoverOptions.runJsonBeside`):
 * with file-system events on, the run is read looking for these only (two failed stats a run
 * less); one written since is an event, which settles the run again.
 */
export const runJsonIn = (sig: string, entry: string, edition: Registry.TaskEdition): ReadonlyArray<string> =>
  runJsonNames(entry, edition).filter(seenIn(sig).has)

/**
 * The `run.json` names a signature found (as `signature`'s `listed`): a name is looked for again
 * only if it was there. (A run file inside a folder run named like one makes it looked for: never
 * a name missed, at worst a stat more.)
 */
export const seenIn = (sig: string): { readonly has: (name: string) => boolean } => ({ has: (name) => sig.includes(`|${name}:`) })
