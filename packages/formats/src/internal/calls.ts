/**
 * The file-system calls behind formats' checked reads (`Files`) and run loading (`Submissions`):
 * Node's asynchronous ones by default, or the same calls made synchronously (`useSynchronous`) in
 * a thread whose only work is reading runs, an isolated scorer.
 *
 * Why both: an asynchronous call is a round trip through libuv's thread pool (~40 µs, the system
 * call a few), and a run takes about ten calls, so reading 2,000 STS-B runs was 300 ms of calls
 * asynchronously against 75 ms synchronously (2-core machine). A scorer thread has nothing else to
 * do while it waits, and its budget still ends it; the main thread must stay responsive (signals,
 * the watcher's timers) and keeps the asynchronous calls. Both keep Node's promise API, so the code
 * above is the same in both modes.
 *
 * @internal
 */
import * as fsSync from "node:fs"
import type { BigIntStats, Stats } from "node:fs"
import * as fsp from "node:fs/promises"

/** The part of an open file the checked reads use (Node's `FileHandle` has it). */
export interface Handle {
  readonly fd: number
  stat(): Promise<Stats>
  stat(options: { bigint: true }): Promise<BigIntStats>
  read(buffer: Uint8Array, offset: number, length: number, position: null): Promise<{ readonly bytesRead: number }>
  close(): Promise<void>
}

export interface Calls {
  readonly lstat: (path: string) => Promise<Stats>
  readonly stat: {
    (path: string): Promise<Stats>
    (path: string, options: { bigint: true }): Promise<BigIntStats>
  }
  readonly open: (path: string, flags: number) => Promise<Handle>
  readonly realpath: (path: string) => Promise<string>
  readonly readlink: (path: string) => Promise<string>
}

const asynchronous: Calls = {
  lstat: (path) => fsp.lstat(path),
  stat: ((path: string, options?: { bigint: true }) => fsp.stat(path, options)) as Calls["stat"],
  open: (path, flags) => fsp.open(path, flags),
  realpath: (path) => fsp.realpath(path),
  readlink: (path) => fsp.readlink(path)
}

/** A synchronous call's result as Node's promise API gives it: a throw becomes a rejection. */
const settled = <A>(call: () => A): Promise<A> => {
  try {
    return Promise.resolve(call())
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)))
  }
}

const syncHandle = (fd: number): Handle => ({
  fd,
  stat: ((options?: { bigint: true }) => settled(() => fsSync.fstatSync(fd, options))) as Handle["stat"],
  read: (buffer, offset, length, position) => settled(() => ({ bytesRead: fsSync.readSync(fd, buffer, offset, length, position) })),
  close: () => settled(() => fsSync.closeSync(fd))
})

const synchronous: Calls = {
  lstat: (path) => settled(() => fsSync.lstatSync(path)),
  stat: ((path: string, options?: { bigint: true }) => settled(() => fsSync.statSync(path, options))) as Calls["stat"],
  open: (path, flags) => settled(() => syncHandle(fsSync.openSync(path, flags))),
  realpath: (path) => settled(() => fsSync.realpathSync.native(path)),
  readlink: (path) => settled(() => fsSync.readlinkSync(path))
}

/** The calls in use: asynchronous unless this thread asked otherwise. */
export let calls: Calls = asynchronous

/** Make this thread's calls synchronous (an isolated scorer's, before its first run). */
export const useSynchronous = (): void => {
  calls = synchronous
}
