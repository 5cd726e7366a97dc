/** Writing outputs: a folder tree copied with caps, a file written whole or not at all, a folder put in place whole. */
import { mkdir, opendir, realpath, writeFile } from "node:fs/promises"
import * as nodePath from "node:path"
import { Effect, FileSystem } from "effect"
import type * as PlatformError from "effect/PlatformError"
import { DEFAULT_MAX_BYTES } from "../Text.js"
import { ERRNO_WORDS, errnoOf } from "./errno.js"
import { detail, readFile, realPath } from "./read.js"
import type { Within } from "./read.js"

/**
 * The caps of `copyTree`, and the top-level names it leaves out.
 *
 * @since 0.2.0
 */
export interface CopyOptions {
  /** deepest folder level read (default 8): a deeper tree is a problem, not a stack overflow or a path too long */
  readonly maxDepth?: number
  /** most files copied (default 1000) */
  readonly maxFiles?: number
  /** most bytes copied in all, counted as read (default `Text.DEFAULT_MAX_BYTES`) */
  readonly maxBytes?: number
  /** names at the top level left out */
  readonly skip?: ReadonlyArray<string>
}

/**
 * Copy a tree of someone else's files (a participant's submission) into a new folder, reading every
 * file as `readFile` does (inside `from`, regular files only, capped) and writing it as a regular
 * file: a FIFO, socket or device, a link out of the tree or to a folder, a tree deeper than
 * `maxDepth`, more than `maxFiles` files or `maxBytes` bytes are not copied and each is a problem,
 * a sentence naming the entry by its path inside `from` (never a server path), fit to show the
 * person who sent the files. Never fails: an entry that cannot be read is a problem too.
 *
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 * const problems = Files.copyTree("/app/input/res", "/tmp/stage/submission", { skip: ["metadata"] })
 * ```
 *
 * @since 0.2.0
 */
export const copyTree = (from: string, to: string, options: CopyOptions = {}): Effect.Effect<ReadonlyArray<string>> =>
  Effect.promise(async () => {
    const maxDepth = options.maxDepth ?? 8
    const maxFiles = options.maxFiles ?? 1000
    const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
    const skip = new Set(options.skip ?? [])
    const problems: Array<string> = []
    const root = await realpath(from).catch(() => from)
    const within: Within = { path: from, real: root }
    let files = 0
    let bytes = 0
    const copy = async (dir: string, rel: string, depth: number): Promise<void> => {
      await mkdir(nodePath.join(to, rel), { recursive: true })
      const entries: Array<{ readonly name: string; readonly directory: boolean }> = []
      for await (const entry of await opendir(nodePath.join(from, rel))) {
        if (depth === 1 && skip.has(entry.name)) continue
        entries.push({ name: entry.name, directory: entry.isDirectory() })
      }
      entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
      for (const entry of entries) {
        const inner = rel === "" ? entry.name : `${rel}/${entry.name}`
        if (entry.directory) {
          if (depth >= maxDepth) problems.push(`${inner}: folders are nested more than ${maxDepth} deep here; what lies below was not read`)
          else await copy(dir, inner, depth + 1)
          continue
        }
        if (files >= maxFiles) {
          problems.push(`${inner}: more than ${maxFiles} files were sent; the rest were not read`)
          return
        }
        const read = await Effect.runPromise(Effect.result(readFile(nodePath.join(from, inner), { within, maxBytes: maxBytes - bytes, what: "the file" })))
        if (read._tag === "Failure") {
          problems.push(`${inner}: ${detail(read.failure)}`)
          continue
        }
        files++
        bytes += read.success.length
        await writeFile(nodePath.join(to, inner), read.success, { flag: "wx" })
      }
    }
    try {
      await copy(from, "", 1)
    } catch (e) {
      problems.push(`the files sent cannot be read (${errnoOf(e) !== undefined ? (ERRNO_WORDS[errnoOf(e)!] ?? errnoOf(e)) : "an unexpected error"})`)
    }
    return problems
  })

let tempCounter = 0

/**
 * Write an output file whole or not at all: the data goes to a temporary file beside it
 * (`.<name>.<pid>.<n>.tmp`), which is then renamed over the file (atomic within one file system, so
 * a reader sees the old file or the new one, never half of one). The write is not interrupted once
 * begun (Ctrl-C then stops the program right after it), and the temporary file is removed when the
 * write fails (a full disk), so a stopped program leaves neither half an output nor a temporary
 * file behind. A link is written through (the file it points at is replaced, not the link), and a
 * path that is not a regular file (`/dev/stdout`, a FIFO, `/dev/full`) is written to directly, as
 * nothing may be renamed over it. Fails with Effect's `PlatformError` (`describe` puts it in words).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Files } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * await Effect.runPromise(Files.writeAtomic("report.html", "<!doctype html>...").pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.3.0
 */
export const writeAtomic = (path: string, data: string | Uint8Array) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const bytes = typeof data === "string" ? new TextEncoder().encode(data) : data
    const target = (yield* realPath(path)) ?? path
    const info = yield* fs.stat(target).pipe(Effect.option)
    if (info._tag === "Some" && info.value.type !== "File") return yield* fs.writeFile(target, bytes)
    const temp = nodePath.join(nodePath.dirname(target), `.${nodePath.basename(target)}.${process.pid}.${++tempCounter}.tmp`)
    yield* fs.writeFile(temp, bytes, { flag: "wx" }).pipe(
      Effect.andThen(fs.rename(temp, target)),
      Effect.tapError(() => fs.remove(temp, { force: true }).pipe(Effect.ignore))
    )
  }).pipe(Effect.uninterruptible)

/** Whether process `pid` exists (EPERM: it does, another user's). */
const processAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return errnoOf(e) === "EPERM"
  }
}

/**
 * Write a folder whole or not at all: `fill` writes its files into a fresh hidden folder beside
 * `target` (`.<name>.writing-<pid>-XXXXXX`; one a killed writer left is removed first), which is then renamed to `target` (atomic within one file
 * system: a reader sees no folder or the whole one). `target` must not exist, or be an empty folder
 * (which the rename replaces, as POSIX's rename does: a folder that is not empty, or a file, makes
 * it fail, and nothing there is deleted). When `fill` fails, or the program is stopped (Ctrl-C), the hidden folder
 * is removed: nothing half-written is left, under either name. Fails with `fill`'s error, or
 * Effect's `PlatformError` (`describe` puts it in words).
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { Files } from "@stseval/formats"
 * import { Effect, FileSystem } from "effect"
 * import * as path from "node:path"
 *
 * const written = Files.writeFolder("submissions/ECNU_run1", (dir) =>
 *   Effect.gen(function* () {
 *     const fs = yield* FileSystem.FileSystem
 *     yield* fs.writeFileString(path.join(dir, "STS.output.answers-forums.txt"), "4.2\n")
 *   })
 * )
 * await Effect.runPromise(written.pipe(Effect.provide(NodeServices.layer)))
 * ```
 * @since 0.3.0
 */
export const writeFolder = <A, E, R>(
  target: string,
  fill: (staging: string) => Effect.Effect<A, E, R>
): Effect.Effect<A, E | PlatformError.PlatformError, R | FileSystem.FileSystem> =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const full = nodePath.resolve(target)
    yield* fs.makeDirectory(nodePath.dirname(full), { recursive: true })
    // named with this process's pid, so that the next write removes what a writer killed with
    // SIGKILL left (its clean-up never ran), and never a living writer's
    const prefix = `.${nodePath.basename(full)}.writing-`
    for (const name of yield* fs.readDirectory(nodePath.dirname(full)).pipe(Effect.orElseSucceed(() => [] as Array<string>))) {
      const pid = name.startsWith(prefix) ? /^(\d+)-/.exec(name.slice(prefix.length))?.[1] : undefined
      if (pid !== undefined && !processAlive(Number(pid))) yield* fs.remove(nodePath.join(nodePath.dirname(full), name), { recursive: true, force: true }).pipe(Effect.ignore)
    }
    const staging = yield* fs.makeTempDirectory({ directory: nodePath.dirname(full), prefix: `${prefix}${process.pid}-` })
    const removeStaging = fs.remove(staging, { recursive: true, force: true }).pipe(Effect.ignore)
    return yield* Effect.gen(function* () {
      const result = yield* fill(staging)
      yield* fs.rename(staging, full)
      return result
    }).pipe(Effect.onExit((exit) => (exit._tag === "Success" ? Effect.void : removeStaging)))
  })
