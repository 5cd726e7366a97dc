/** Reading a file: opened once without following a final link, checked on the descriptor, capped. */
import { constants } from "node:fs"
import * as nodePath from "node:path"
import { Effect, Schema } from "effect"
import { calls, useSynchronous } from "../internal/calls.js"
import type { Handle } from "../internal/calls.js"
import * as Issue from "../Issue.js"
import { DEFAULT_MAX_BYTES } from "../Text.js"
import { ERRNO_WORDS, errnoOf } from "./errno.js"

/**
 * Why a file could not be read.
 *
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 *
 * declare const error: Files.ReadError
 * const reason: Files.ReadFailure = error.reason // "missing", "too-large", "outside" (a link out of the folder)...
 * const yours = reason !== "missing" // the file is there, and the problem is its own
 * ```
 * @since 0.2.0
 */
export const ReadFailure = Schema.Literals(["missing", "not-a-file", "too-large", "outside", "unreadable", "not-text"])
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
 * The bounds and the folder a file is read within, and what to call it in a message.
 *
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
  /**
   * the caller has just `lstat`ed the path and found a regular file, no link (a submissions
   * folder's entry, looked at to tell runs apart): the open is not preceded by that look again. The
   * checks on the open file are the same.
   */
  readonly lookedAt?: boolean
}

/**
 * A folder and its real path (links resolved).
 *
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

/**
 * A POSIX absolute path with no `.` or `..` part, no doubled or final `/` (but the root's): what
 * `realpath` and `/proc/self/fd` give. Two such paths are compared as strings, where
 * `path.relative` resolves both first (a fifth of the checked read's own time on 2,000 STS-B runs).
 * Never on Windows, whose paths compare without case.
 */
const isPlainAbsolute = (p: string): boolean =>
  nodePath.sep === "/" && p.charCodeAt(0) === 47 && (p.length === 1 || (p.charCodeAt(p.length - 1) !== 47 && !/\/\.{0,2}(?:\/|$)/.test(p)))

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
  if (isPlainAbsolute(root) && isPlainAbsolute(child)) return child === root || child.startsWith(root.endsWith("/") ? root : `${root}/`)
  const rel = nodePath.relative(root, child)
  // `..` as the first part, not as a name's start (`...`, `..x` lie inside)
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${nodePath.sep}`) && !nodePath.isAbsolute(rel))
}

/**
 * Make this thread's file reads (`readFile`, `realPath`, and the runs `Submissions` loads) use
 * synchronous system calls, for a thread whose only work is reading: an isolated scorer. The
 * checks are the same; each call just blocks the thread instead of a round trip through libuv's
 * thread pool (reading 2,000 small runs: about 4 times less time in file-system calls). Never on a
 * thread that must stay responsive while it reads (a program's main thread). For good: there is
 * no way back, as a scorer thread needs none.
 *
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 * import { isMainThread } from "node:worker_threads"
 *
 * if (!isMainThread) Files.useSynchronousCalls()
 * ```
 * @since 0.3.0
 */
export const useSynchronousCalls = (): void => useSynchronous()

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
  Effect.promise(() => calls.realpath(path).catch(() => undefined))

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
      const root = typeof within === "string" ? await calls.realpath(within) : within.real
      const real = await calls.realpath(path)
      return { root, real }
    },
    catch: (e) => failure(path, e, what)
  }).pipe(
    Effect.flatMap(({ root, real }) =>
      isInside(root, real)
        ? Effect.succeed(real)
        : Effect.fail(outside(path, what))
    )
  )

const failure = (path: string, e: unknown, what: string): ReadError => {
  if (e instanceof ReadError) return e
  const code = errnoOf(e)
  if (code === "ENOENT") return new ReadError({ path, reason: "missing", message: `${path}: ${what} does not exist` })
  if (code === "ELOOP") return new ReadError({ path, reason: "unreadable", message: `${path}: ${what} is a link that points back to itself (a loop)` })
  if (code === "EACCES" || code === "EPERM") return new ReadError({ path, reason: "unreadable", message: `${path}: ${what} cannot be read (permission denied)` })
  if (code === "EISDIR") return new ReadError({ path, reason: "not-a-file", message: `${path}: ${what} is a folder, not a file` })
  // opening a socket
  if (code === "ENXIO") return new ReadError({ path, reason: "not-a-file", message: `${path}: ${what} is a socket or a device with nothing behind it, not a regular file; it was not read` })
  if (code === "ENOTDIR") return new ReadError({ path, reason: "missing", message: `${path}: ${what} does not exist (a part of its path is not a folder)` })
  if (code === "ENAMETOOLONG") return new ReadError({ path, reason: "unreadable", message: `${path}: ${what} cannot be read (its path is longer than the system allows)` })
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

// O_NOFOLLOW and O_NOCTTY are 0 where the platform lacks them (Windows): the descriptor checks
// below still hold there.
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0) | (constants.O_NOFOLLOW ?? 0)

const outside = (path: string, what: string) =>
  new ReadError({
    path,
    reason: "outside",
    // The link's target is not named: on a shared scoring server (Codabench) messages reach the
    // participants, and the target's real path would show the server's folders.
    message: `${path}: ${what} is a link to a place outside the folder it is read from; files are read only inside that folder, so it was not read`
  })

const swapped = (path: string, what: string) =>
  new ReadError({ path, reason: "unreadable", message: `${path}: ${what} changed while it was being opened (a link was put in its place); it was not read` })

const notAFile = (path: string, what: string, info: Parameters<typeof kindOf>[0]) =>
  new ReadError({ path, reason: "not-a-file", message: `${path}: ${what} is ${kindOf(info)}, not a regular file; it was not read` })

/** The error of `open` when the final component is a link and `O_NOFOLLOW` refused it (ELOOP; EMLINK on the BSDs). */
const isLinkRefused = (e: unknown): boolean => {
  const code = errnoOf(e)
  return code === "ELOOP" || code === "EMLINK"
}

/**
 * The real path of an open file, from its descriptor: on Linux the kernel's own answer
 * (`/proc/self/fd/<fd>`, a file deleted since it was opened keeps its old path and a ` (deleted)`
 * tail); elsewhere the real path of what was opened, accepted only when it is still the file the
 * descriptor holds (same device and inode).
 */
const descriptorPath = async (handle: Handle, opened: string, path: string, what: string): Promise<string> => {
  if (process.platform === "linux") {
    const link = await calls.readlink(`/proc/self/fd/${handle.fd}`).catch(() => undefined)
    if (link !== undefined && nodePath.isAbsolute(link)) return link.endsWith(" (deleted)") ? link.slice(0, -" (deleted)".length) : link
  }
  const real = await calls.realpath(opened)
  const [held, named] = await Promise.all([handle.stat({ bigint: true }), calls.stat(real, { bigint: true })])
  if (held.dev !== named.dev || held.ino !== named.ino) throw swapped(path, what)
  return real
}

/**
 * Open `path` for reading without following a final link and without blocking, and check the open
 * file: a regular file (`fstat` of the descriptor) and, with `within`, inside that folder (the
 * descriptor's real path). A path that is a link is resolved once and its target opened the same
 * way: a link inside the folder is read, a link swapped in meanwhile is refused.
 */
const openChecked = async (
  path: string,
  what: string,
  within: string | Within | undefined,
  lookedAt = false
): Promise<{ readonly handle: Handle; readonly size: number }> => {
  const root = within === undefined ? undefined : typeof within === "string" ? await calls.realpath(within) : within.real
  // Not opened at all when the entry is plainly no regular file: opening a device can have effects
  // of its own (a tape rewinds, a terminal becomes the controlling one). The check that counts is
  // the one on the descriptor below; this one only spares the open, and is not made again when the
  // caller has just made it (`lookedAt`: a submissions folder's entry, `lstat`ed to tell runs apart).
  if (!lookedAt) {
    const entry = await calls.lstat(path)
    if (!entry.isFile() && !entry.isSymbolicLink()) throw notAFile(path, what, entry)
  }
  let opened = path
  let handle: Handle
  try {
    handle = await calls.open(path, OPEN_FLAGS)
  } catch (e) {
    if (!isLinkRefused(e)) throw e
    // A link: resolved once, checked, then its target opened without following links either.
    opened = await calls.realpath(path)
    if (root !== undefined && !isInside(root, opened)) throw outside(path, what)
    const target = await calls.stat(opened)
    if (!target.isFile()) throw notAFile(path, what, target)
    try {
      handle = await calls.open(opened, OPEN_FLAGS)
    } catch (again) {
      throw isLinkRefused(again) ? swapped(path, what) : again
    }
  }
  try {
    const info = await handle.stat()
    if (!info.isFile()) throw notAFile(path, what, info)
    if (root !== undefined && !isInside(root, await descriptorPath(handle, opened, path, what))) throw outside(path, what)
    return { handle, size: info.size }
  } catch (e) {
    await handle.close()
    throw e
  }
}

/**
 * Read a regular file's bytes, at most `maxBytes` of them (counted as they are read). Fails with a
 * `ReadError` naming the path: missing, not a regular file (a folder, FIFO, device, socket), larger
 * than the cap, outside `within` (checked on the open file, see the module's comment), or
 * unreadable. Never blocks on a FIFO.
 *
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 * // a run file of a submissions folder: never read through a link out of it
 * const bytes = Files.readFile("runs/ECNU_run1.txt", { within: "runs", what: "the run file", maxBytes: 1 << 20 })
 * ```
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
  return Effect.tryPromise({
    try: async (signal) => {
      const { handle, size } = await openChecked(path, what, options.within, options.lookedAt === true)
      try {
        if (size > maxBytes) throw tooLarge(path, what, maxBytes, `${size} bytes`)
        // One more byte than the cap tells "exactly the cap" from "larger" (a file may grow).
        let buffer = new Uint8Array(Math.min(size, maxBytes) + 1)
        let total = 0
        for (;;) {
          if (signal.aborted) throw new ReadError({ path, reason: "unreadable", message: `${path}: reading ${what} was interrupted` })
          if (total === buffer.length) {
            if (total > maxBytes) throw tooLarge(path, what, maxBytes, `more than ${maxBytes} bytes`)
            const grown = new Uint8Array(Math.min(buffer.length * 2, maxBytes + 1))
            grown.set(buffer)
            buffer = grown
          }
          const asked = buffer.length - total
          const { bytesRead } = await handle.read(buffer, total, asked, null)
          total += bytesRead
          // a regular file's read gives less than asked only at its end: no read again to hear 0
          if (bytesRead < asked) break
        }
        if (total > maxBytes) throw tooLarge(path, what, maxBytes, `more than ${maxBytes} bytes`)
        return total === buffer.length ? buffer : buffer.subarray(0, total)
      } finally {
        await handle.close()
      }
    },
    catch: (e) => failure(path, e, what)
  })
}

/**
 * Check a file as `readFile` would before reading it (a regular file, inside `within`, its size
 * within `maxBytes`), without reading it: for a command that reads many inputs one at a time and
 * must know they are all readable before it writes anything.
 *
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 * const size = Files.inspect("download/ID_12_run.zip", { what: "the submission zip" })
 * ```
 *
 * @since 0.2.0
 */
export const inspect = (path: string, options: ReadOptions = {}): Effect.Effect<{ readonly size: number }, ReadError> => {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES
  const what = options.what ?? "the file"
  return Effect.tryPromise({
    try: async () => {
      const { handle, size } = await openChecked(path, what, options.within)
      await handle.close()
      if (size > maxBytes) throw tooLarge(path, what, maxBytes, `${size} bytes`)
      return { size }
    },
    catch: (e) => failure(path, e, what)
  })
}

/**
 * A file's text: `readFile`, then UTF-8 (a BOM dropped); bytes that are not UTF-8 are a `ReadError`
 * (`not-text`). For the small files a person writes: configs, JSON maps, edition files.
 *
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 * const text = Files.readText("report.yaml", { what: "the report config", maxBytes: 1 << 20 })
 * ```
 *
 * @since 0.2.0
 */
export const readText = (path: string, options: ReadOptions = {}): Effect.Effect<string, ReadError> =>
  Effect.flatMap(readFile(path, options), (bytes) => {
    try {
      return Effect.succeed(new TextDecoder("utf-8", { fatal: true }).decode(bytes))
    } catch {
      return Effect.fail(new ReadError({ path, reason: "not-text", message: `${path}: ${options.what ?? "the file"} is not UTF-8 text; it was not read` }))
    }
  })

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
    error.reason === "too-large" ? "too-large" : error.reason === "outside" ? "outside-folder" : error.reason === "not-text" ? "invalid-utf8" : "file-unreadable",
    file,
    detail(error)
  )

/**
 * An error of the file system in words: the path, what happened and the system's code (`/srv/out:
 * no space is left on the device (ENOSPC)`, `... the file system is read-only (EROFS)`), where
 * Effect's `PlatformError` message says `Unknown: FileSystem.writeFile (/srv/out/x)`. Any other
 * error: its message.
 *
 * @example
 * ```ts
 * import { Files } from "@stseval/formats"
 * // fs.writeFileString(out, text).pipe(Effect.mapError((e) => new UsageError({ message: Files.describe(e) })))
 * ```
 *
 * @since 0.2.0
 */
export const describe = (error: unknown): string => {
  const field = (o: unknown, key: string): unknown => (typeof o === "object" && o !== null && key in o ? (o as Record<string, unknown>)[key] : undefined)
  const reason = field(error, "reason") ?? error
  const cause = field(reason, "cause")
  const code = errnoOf(cause) ?? errnoOf(reason)
  const path = field(reason, "pathOrDescriptor") ?? field(cause, "path")
  const words = code !== undefined ? ERRNO_WORDS[code] : undefined
  if (words !== undefined) return `${typeof path === "string" ? `${path}: ` : ""}${words} (${code})`
  const message = field(error, "message")
  return typeof message === "string" ? message : String(error)
}

