/**
 * Reading a user's file: the one place this package (and the apps) read the bytes of a run, a gold
 * file, a `run.json`, an edition file or a cached download.
 *
 * Every read refuses what is not a regular file (a FIFO would block forever, `/dev/zero` never
 * ends, a socket is not data) and is capped by the bytes actually read, not by the size `stat`
 * reports (which is 0 for `/dev/zero` and can change while reading). With `within`, the file's real
 * path (symbolic links resolved) must lie inside that folder: a run cannot read `/etc/passwd`
 * through a link.
 *
 * Hand-written on `node:fs` rather than Effect's `FileSystem`: opening needs `O_NONBLOCK` (so that
 * a FIFO without a writer cannot block the open) and the type check must be made on the opened
 * descriptor (`fstat`), neither of which `FileSystem.open` offers.
 *
 * @since 0.2.0
 */
import { constants } from "node:fs"
import { open, realpath } from "node:fs/promises"
import * as nodePath from "node:path"
import { Effect, Schema } from "effect"
import * as Issue from "./Issue.js"
import { DEFAULT_MAX_BYTES } from "./Text.js"

/**
 * Why a file could not be read.
 *
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 *
 * const failure: Files.ReadFailure = "too-large"
 * ```
 * @since 0.2.0
 */
export const ReadFailure = Schema.Literals(["missing", "not-a-file", "too-large", "outside", "unreadable"])
/** @since 0.2.0 */
export type ReadFailure = typeof ReadFailure.Type

/**
 * A file that was not read, with a sentence for people (`message` names the path and the reason).
 *
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const bytes = Files.readFile("STS.output.headlines.txt").pipe(
 *   Effect.catchTag("ReadError", (e: Files.ReadError) => Effect.fail(Files.detail(e)))
 * )
 * ```
 * @since 0.2.0
 */
export class ReadError extends Schema.TaggedError<ReadError>()("ReadError", {
  path: Schema.String,
  reason: ReadFailure,
  message: Schema.String
}) {}

/**
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 *
 * const options: Files.ReadOptions = { maxBytes: 10 * 1024 * 1024, within: "submissions", what: "run file" }
 * ```
 * @since 0.2.0
 */
export interface ReadOptions {
  /** largest number of bytes read (default `Text.DEFAULT_MAX_BYTES`, 256 MiB); one more is an error */
  readonly maxBytes?: number
  /**
   * a folder the file's real path (links resolved) must lie inside; with its real path when the
   * caller has it (reading many files of one folder resolves the folder once, not per file)
   */
  readonly within?: string | Within
  /** what the file is, for messages: "the run file", "the gold file" (default "the file") */
  readonly what?: string
}

/**
 * A folder and its real path (links resolved).
 *
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * // a folder given once: links inside it are followed only while they stay inside
 * const root: Files.Within = { path: "submissions", real: await Effect.runPromise(Files.realPathWithin("submissions", "submissions")) }
 * ```
 * @since 0.2.0
 */
export interface Within {
  readonly path: string
  readonly real: string
}

const kindOf = (info: { isDirectory(): boolean; isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean; isSymbolicLink(): boolean }): string =>
  info.isDirectory()
    ? "a folder"
    : info.isFIFO()
      ? "a FIFO (named pipe)"
      : info.isCharacterDevice()
        ? "a character device"
        : info.isBlockDevice()
          ? "a block device"
          : info.isSocket()
            ? "a socket"
            : "not a regular file"

const errnoOf = (e: unknown): string | undefined =>
  typeof e === "object" && e !== null && "code" in e && typeof e.code === "string" ? e.code : undefined

/**
 * True when `child` (a real path) is `root` or lies inside it.
 *
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 *
 * Files.isInside("/data/submissions", "/data/submissions/Team/run.txt") // true
 * Files.isInside("/data/submissions", "/data/other") // false
 * ```
 * @since 0.2.0
 */
export const isInside = (root: string, child: string): boolean => {
  const rel = nodePath.relative(root, child)
  return rel === "" || (!rel.startsWith("..") && !nodePath.isAbsolute(rel))
}

/**
 * The real path of `path` (links resolved), or undefined when it cannot be resolved (a broken link,
 * a race with a deletion). Node's native `realpath`: Effect's `FileSystem.realPath` is Node's
 * JavaScript one, an `lstat` per path component, which cost a fifth of a second on 200 runs.
 *
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const real = await Effect.runPromise(Files.realPath("submissions/latest")) // undefined when it does not exist
 * ```
 * @since 0.2.0
 */
export const realPath = (path: string): Effect.Effect<string | undefined> =>
  Effect.promise(() => realpath(path).catch(() => undefined))

/**
 * The real path of `path` (links resolved), refused when it is not inside `within`'s real path. The
 * refusal names `path`, never where the link points.
 *
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const real = await Effect.runPromise(Files.realPathWithin("submissions/Team_run1.txt", "submissions", "run file"))
 * ```
 * @since 0.2.0
 */
export const realPathWithin = (path: string, within: string | Within, what = "the file"): Effect.Effect<string, ReadError> =>
  Effect.tryPromise({
    try: async () => {
      const root = typeof within === "string" ? await realpath(within) : within.real
      const real = await realpath(path)
      return { root, real }
    },
    catch: (e) => failure(path, e, what)
  }).pipe(
    Effect.flatMap(({ root, real }) =>
      isInside(root, real)
        ? Effect.succeed(real)
        : Effect.fail(
            new ReadError({
              path,
              reason: "outside",
              // The link's target is not named: on a shared scoring server (Codabench) messages reach
              // the participants, and the target's real path would show the server's folders.
              message: `${path}: ${what} is a link to a place outside the folder it is read from; files are read only inside that folder, so it was not read`
            })
          )
    )
  )

const failure = (path: string, e: unknown, what: string): ReadError => {
  if (e instanceof ReadError) return e
  const code = errnoOf(e)
  if (code === "ENOENT") return new ReadError({ path, reason: "missing", message: `${path}: ${what} does not exist` })
  if (code === "ELOOP") return new ReadError({ path, reason: "unreadable", message: `${path}: ${what} is a link that points back to itself (a loop)` })
  if (code === "EACCES" || code === "EPERM") return new ReadError({ path, reason: "unreadable", message: `${path}: ${what} cannot be read (permission denied)` })
  if (code === "EISDIR") return new ReadError({ path, reason: "not-a-file", message: `${path}: ${what} is a folder, not a file` })
  const detail = e instanceof Error ? e.message : String(e)
  return new ReadError({ path, reason: "unreadable", message: `${path}: ${what} cannot be read (${detail})` })
}

const tooLarge = (path: string, what: string, maxBytes: number, found: string) =>
  new ReadError({
    path,
    reason: "too-large",
    message: `${path}: ${what} has ${found}, more than the limit of ${maxBytes} bytes (${formatBytes(maxBytes)}); it was not read`
  })

/**
 * `268435456` as `256 MiB`.
 *
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 *
 * Files.formatBytes(1536) // "1536 bytes"
 * ```
 * @since 0.2.0
 */
export const formatBytes = (n: number): string =>
  n >= 1024 * 1024 && n % (1024 * 1024) === 0
    ? `${n / (1024 * 1024)} MiB`
    : n >= 1024 && n % 1024 === 0
      ? `${n / 1024} KiB`
      : `${n} bytes`

/**
 * Read a regular file's bytes, at most `maxBytes` of them (counted as they are read). Fails with a
 * `ReadError` naming the path: missing, not a regular file (a folder, FIFO, device, socket), larger
 * than the cap, outside `within`, or unreadable.
 *
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * // a regular file, at most maxBytes, not outside `within` (a link pointing out is refused)
 * const bytes = await Effect.runPromise(Files.readFile("submissions/Team_run1.txt", { within: "submissions" }))
 * ```
 * @since 0.2.0
 */
export const readFile = (path: string, options: ReadOptions = {}): Effect.Effect<Uint8Array, ReadError> => {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
  const what = options.what ?? "the file"
  const target = options.within === undefined ? Effect.succeed(path) : realPathWithin(path, options.within, what)
  return Effect.flatMap(target, (real) =>
    Effect.tryPromise({
      try: async (signal) => {
        // O_NONBLOCK: opening a FIFO without a writer returns at once instead of blocking; the
        // descriptor's own type is then checked, so nothing can be swapped in between.
        const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK)
        try {
          const info = await handle.stat()
          if (!info.isFile()) {
            throw new ReadError({ path, reason: "not-a-file", message: `${path}: ${what} is ${kindOf(info)}, not a regular file; it was not read` })
          }
          if (info.size > maxBytes) throw tooLarge(path, what, maxBytes, `${info.size} bytes`)
          // One more byte than the cap tells "exactly the cap" from "larger" (a file may grow).
          let buffer = new Uint8Array(Math.min(info.size, maxBytes) + 1)
          let total = 0
          for (;;) {
            if (signal.aborted) throw new ReadError({ path, reason: "unreadable", message: `${path}: reading ${what} was interrupted` })
            if (total === buffer.length) {
              if (total > maxBytes) throw tooLarge(path, what, maxBytes, `more than ${maxBytes} bytes`)
              const grown = new Uint8Array(Math.min(buffer.length * 2, maxBytes + 1))
              grown.set(buffer)
              buffer = grown
            }
            const { bytesRead } = await handle.read(buffer, total, buffer.length - total, null)
            if (bytesRead === 0) break
            total += bytesRead
          }
          if (total > maxBytes) throw tooLarge(path, what, maxBytes, `more than ${maxBytes} bytes`)
          return total === buffer.length ? buffer : buffer.subarray(0, total)
        } finally {
          await handle.close()
        }
      },
      catch: (e) => failure(path, e, what)
    })
  )
}

/**
 * The message without the leading `path: ` (for messages that name the file elsewhere).
 *
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 *
 * declare const error: Files.ReadError
 * console.error(Files.detail(error)) // the path and why it was not read
 * ```
 * @since 0.2.0
 */
export const detail = (error: ReadError): string =>
  error.message.startsWith(`${error.path}: `) ? error.message.slice(error.path.length + 2) : error.message

/**
 * The issue for a file that was not read (`too-large` or `file-unreadable`; `outside-folder` for a
 * link out of the allowed folder).
 *
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 *
 * declare const error: Files.ReadError
 * const issue = Files.toIssue(error, "Team_run1.txt") // the same problem, as an issue of the run
 * ```
 * @since 0.2.0
 */
export const toIssue = (error: ReadError, file: string = error.path): Issue.Issue =>
  Issue.error(
    error.reason === "too-large" ? "too-large" : error.reason === "outside" ? "outside-folder" : "file-unreadable",
    file,
    detail(error)
  )
