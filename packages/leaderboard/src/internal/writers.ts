/**
 * Whether a run is still being written, where the platform says so: on Linux, `/proc` lists every
 * process's open files and the flags each was opened with, so a file that no process holds open
 * for writing is whole (a copy, an editor's save, an unzip has closed it). Node's `fs.watch` does
 * not report the close itself (libuv does not ask inotify for IN_CLOSE_WRITE), so the watcher
 * looks: once per run when its events stop, instead of waiting for its files to be `settle` ms old.
 * Elsewhere, or when a process's files cannot be read (another user's, without the right to), the
 * answer is "unknown" and the settle rule holds.
 *
 * One look reads where every process's open files are (about 650 descriptors here: 10-100 ms on a
 * busy 2-core machine) and the flags of those in the submissions folder, so looks are shared: a look that began after a caller's last view of its run answers
 * for it too (500 runs landing at once take a few looks, not 500).
 *
 * @internal
 */
import * as fs from "node:fs"
import * as nodePath from "node:path"

/** Paths open for writing (each a file's path as `/proc` shows it), or undefined when the platform cannot say. */
type Look = ReadonlySet<string> | undefined

const O_ACCMODE = 0o3

/**
 * One look at every process's open files under `folder` (a real path ending in a separator): those
 * opened for writing, or undefined when any process's cannot be read.
 */
const look = (folder: string): Look => {
  if (process.platform !== "linux") return undefined
  let pids: Array<string>
  try {
    pids = fs.readdirSync("/proc").filter((name) => /^\d+$/.test(name))
  } catch {
    return undefined
  }
  const writing = new Set<string>()
  for (const pid of pids) {
    let fds: Array<string>
    try {
      fds = fs.readdirSync(`/proc/${pid}/fd`)
    } catch (e) {
      // a process that ended meanwhile holds nothing; one whose files we may not read might
      if ((e as NodeJS.ErrnoException).code === "ENOENT" || (e as NodeJS.ErrnoException).code === "ESRCH") continue
      return undefined
    }
    for (const fd of fds) {
      let target: string
      try {
        target = fs.readlinkSync(`/proc/${pid}/fd/${fd}`)
      } catch {
        continue
      }
      // (pipes, sockets and files elsewhere: their flags are not read)
      if (!target.startsWith(folder)) continue
      try {
        const flags = /^flags:\s*([0-7]+)/m.exec(fs.readFileSync(`/proc/${pid}/fdinfo/${fd}`, "latin1"))
        if (flags !== null && (Number.parseInt(flags[1], 8) & O_ACCMODE) !== 0) writing.add(target)
      } catch {
        // closed meanwhile: not open for writing any more
      }
    }
  }
  return writing
}

let last: { readonly at: number; readonly folder: string; readonly result: Look } | undefined

/**
 * Whether any process holds `path` (a run's file), or any file under it (a run's folder), open for
 * writing: `true`, `false`, or `undefined` when the platform cannot say. `since`: when the caller
 * last looked at the run (`performance.now()`); a look begun after it is reused.
 */
export const heldForWriting = (path: string, since: number): boolean | undefined => {
  // /proc shows real paths: the run's as the system resolves it (one call: Node's own
  // `realpathSync` looks at each part of the path, 3x the time on 500 runs)
  let real: string
  try {
    real = fs.realpathSync.native(path)
  } catch {
    return undefined
  }
  const folder = nodePath.dirname(real) + nodePath.sep
  if (last === undefined || last.at < since || last.folder !== folder) {
    const at = performance.now()
    last = { at, folder, result: look(folder) }
  }
  const writing = last.result
  if (writing === undefined) return undefined
  const under = real + nodePath.sep
  for (const file of writing) if (file === real || file.startsWith(under)) return true
  return false
}
