/**
 * Tracking the submissions folder's entries: an event or a rescan "touches" an entry, which
 * restarts its settle fiber (a debounce); once the entry has been quiet for a whole window it is
 * queued for scoring. Entries that disappear leave the board.
 *
 * Events: one non-recursive watcher on the submissions folder (inotify reports entries created,
 * removed, renamed and files directly in it modified), plus a recursive watcher per folder run for
 * the files inside it. Node's recursive fs.watch on Linux is implemented in JavaScript: it re-reads
 * the whole tree on every event and stat-polls every file, which does not scale to a folder of
 * hundreds of runs, but is fine on one run's handful of files.
 *
 * @internal
 */
import { Files, Submissions } from "@stseval/formats"
import { Effect, FiberMap, FileSystem, Path, Queue, Stream } from "effect"
import { isIgnoredName, seenIn, sha256, signature } from "./files.js"
import { heldForWriting } from "./writers.js"
import { log, markDone, markPending, requestPublish, setStatus } from "./session.js"
import type { Session, Track } from "./session.js"

type Env = FileSystem.FileSystem | Path.Path

/** Is this top-level entry a run (not hidden, not a partial download, not metadata, not the output folder)? */
export const isRunName = (session: Session, entry: string): boolean =>
  !isIgnoredName(entry) && !entry.endsWith(Submissions.RUN_JSON_SUFFIX) && entry !== session.settings.outEntry

/** Drop an entry from the board (deleted, or not a run). */
export const removeEntry = (session: Session, t: Track, why: string) =>
  Effect.gen(function* () {
    if (session.tracks.get(t.entry) !== t) return
    yield* FiberMap.remove(session.runWatchers, t.entry)
    session.tracks.delete(t.entry)
    markDone(session, t)
    requestPublish(session)
    if (t.published !== undefined) yield* log(session, "info", `${t.entry}: ${why}; removed from the leaderboard`)
  })

/** Watch a folder run's files, so that a file changed inside it touches the run. */
const watchRunFolder = (session: Session, t: Track) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    yield* FiberMap.run(session.runWatchers, t.entry, { onlyIfMissing: true })(
      fs.watch(path.join(session.settings.folder, t.entry), { recursive: true }).pipe(
        Stream.runForEach(() => touch(session, t.entry)),
        // the folder went away or was replaced by a file: its top-level event touches the run
        Effect.ignore
      )
    )
  })

/**
 * Whether a `*.zip` entry opens as a zip, read as a run's zip is read (formats' reader: a regular
 * file inside the submissions folder, capped; `Evil_run1.zip -> /proc/self/pagemap` or a FIFO is not
 * read at all, and is then scored as the broken run it is).
 */
const zipOpens = (folder: string, file: string) =>
  Files.readFile(file, { within: folder, what: "the run's zip" }).pipe(
    Effect.map((bytes) => !Submissions.readZip(bytes, file).issues.some((i) => i.code === "file-unreadable")),
    Effect.orElseSucceed(() => false)
  )

/**
 * A name that is not valid UTF-8 reaches us with U+FFFD in place of the bad bytes, so the file
 * cannot be opened under it (it is "absent"): it is listed as a failed run that says why, and
 * logged, instead of silently missing from the board.
 */
const undecodableName = (session: Session, t: Track) =>
  Effect.gen(function* () {
    const error = Submissions.undecodableName(t.entry, t.entry)
    const meta = Submissions.metaFromName(t.entry, session.edition)
    const failure = error.message
    yield* log(session, "warn", `${t.entry}: ${failure}; listed as failed`)
    t.settledSig = "absent"
    t.published = {
      entry: t.entry,
      kind: "file",
      // the team, number and flags its name gives, as `discover` lists it
      team: meta.team,
      run: meta.run,
      primary: meta.primary,
      late: false,
      corrected: false,
      hash: sha256(t.entry),
      submittedAt: Date.now(),
      outcome: { status: "failed", failure, official: [], errors: [error], warnings: [] },
      key: "",
      sig: "absent"
    }
    setStatus(session, t, "failed")
    markDone(session, t)
  })

/**
 * The waits while a writer holds a run open (`heldForWriting`): the first, doubled at each look up
 * to the last (a copy usually closes its file at once; a slow writer is looked at twice a second).
 */
const HELD_FIRST_MS = 25
const HELD_LAST_MS = 500

/**
 * Wait until the run is whole, then queue it: a run file or zip closed by every writer where the
 * platform says so (`heldForWriting`), else quiet for a whole debounce window (signature unchanged) with its newest
 * mtime at least `settle` ms old.
 */
const settle = (session: Session, t: Track, generation: number, listed?: ReadonlySet<string>): Effect.Effect<void, never, Env> =>
  Effect.gen(function* () {
    const path = yield* Path.Path
    const { folder, debounce, useEvents } = session.settings
    const edition = session.edition
    let zipRetries = 1
    // while a writer holds the run open: looked at again soon, then less often (each look reads /proc)
    let heldWait = HELD_FIRST_MS
    while (true) {
      const seen = performance.now()
      // (the first look of the first scan with the folder's listing: no run.json it lacks is looked
      // for; one written since touches the run again, and this settle with it)
      const before = yield* signature(folder, t.entry, edition, listed)
      listed = undefined
      // A run file (or zip) closed by its writer, where the platform says so: whole now, no window
      // to wait for. Otherwise quiet for a whole debounce window, and the settle rule below: also
      // for a folder run, copied in file by file, which is between two files' copies with none open.
      const held = before.sig.startsWith("File|") ? heldForWriting(path.join(folder, t.entry), seen) : undefined
      if (held === true) {
        yield* Effect.sleep(heldWait)
        heldWait = Math.min(2 * heldWait, HELD_LAST_MS)
        continue
      }
      const closed = held === false
      let after = before
      if (!closed) {
        yield* Effect.sleep(debounce)
        // with file-system events on, a run.json the first look did not find is not looked for (two
        // failed stats a run): one written since is an event, which restarts this settle
        after = yield* signature(folder, t.entry, edition, useEvents ? seenIn(before.sig) : undefined)
        if (before.sig !== after.sig) continue
      }
      if (session.tracks.get(t.entry) !== t || t.generation !== generation) return
      if (after.sig === "absent" && t.entry.includes("\uFFFD")) return yield* undecodableName(session, t)
      if (after.sig === "absent") {
        session.notRuns.delete(t.entry)
        return yield* removeEntry(session, t, "deleted")
      }
      const full = path.join(folder, t.entry)
      if (edition.submission === "folder" && after.sig.startsWith("File|") && !/\.zip$/i.test(t.entry)) {
        // once per file (again only if it changes): the rescan finds it every few seconds
        if (session.notRuns.get(t.entry) !== after.sig) {
          session.notRuns.set(t.entry, after.sig)
          yield* log(session, "warn", `${t.entry}: not a run (a run of ${edition.id} is a folder or a zip); ignored`)
        }
        return yield* removeEntry(session, t, "not a run")
      }
      session.notRuns.delete(t.entry)
      // a zip still being written does not open: give it one more window before scoring it as broken
      if (/\.zip$/i.test(t.entry) && after.sig.startsWith("File|") && zipRetries > 0 && !(yield* zipOpens(folder, full))) {
        zipRetries--
        continue
      }
      // still being copied? A run whose newest file (or folder: a file was added) changed less than
      // `settle` ms ago waits until it is that old: half a run is never scored and published
      const age = Date.now() - after.mtime
      if (!closed && age < session.settings.settle) {
        yield* Effect.sleep(Math.max(session.settings.settle - age, debounce, 10))
        continue
      }
      if (useEvents && after.sig.startsWith("Directory|")) yield* watchRunFolder(session, t)
      t.settledSig = after.sig
      Queue.offerUnsafe(session.work, { track: t, generation, sig: after.sig, mtime: after.mtime })
      return
    }
  })

/**
 * Something changed in an entry: track it and (re)start its settle fiber. `listed`: the folder's
 * names, just read (the first scan's), for the settle's first look.
 */
export const touch = (session: Session, entry: string, listed?: ReadonlySet<string>): Effect.Effect<void, never, Env> =>
  Effect.suspend(() => {
    if (!isRunName(session, entry)) return Effect.void
    let t = session.tracks.get(entry)
    if (t === undefined) {
      const now = Date.now()
      t = { entry, generation: 0, status: "queued", pending: false, settledSig: undefined, published: undefined, firstSeen: now, updatedAt: now }
      session.tracks.set(entry, t)
    }
    t.generation++
    markPending(session, t)
    if (t.status !== "scoring") setStatus(session, t, "queued")
    return FiberMap.run(session.debouncers, entry, settle(session, t, t.generation, listed)).pipe(Effect.asVoid)
  })

/** A metadata file `X.run.json` changes the meta of run `X` (`X.txt`, `X.zip`, `X/`...). */
const touchMetadataOwner = (session: Session, name: string) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const stem = name.slice(0, -Submissions.RUN_JSON_SUFFIX.length)
    const names = yield* fs.readDirectory(session.settings.folder).pipe(Effect.orElseSucceed(() => [] as Array<string>))
    for (const n of new Set([...names, ...session.tracks.keys()])) {
      if ((Submissions.stripExtension(n, session.edition) === stem || n === stem) && isRunName(session, n)) yield* touch(session, n)
    }
  })

/** Every name in the submissions folder (none when it cannot be read). */
export const listAll = (session: Session) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    return yield* fs.readDirectory(session.settings.folder).pipe(Effect.orElseSucceed(() => [] as Array<string>))
  })

/** The safety net for missed events: touch every entry whose files differ from when it settled. */
export const rescan = (session: Session) =>
  Effect.gen(function* () {
    const all = yield* listAll(session)
    const listed = new Set(all)
    const names = all.filter((n) => isRunName(session, n))
    for (const name of new Set([...names, ...session.tracks.keys()])) {
      const t = session.tracks.get(name)
      if (t?.pending === true) continue
      const now = yield* signature(session.settings.folder, name, session.edition, listed)
      // an entry already found not to be a run, unchanged, is not looked at again
      if (t === undefined && session.notRuns.get(name) === now.sig) continue
      if (t === undefined || now.sig !== t.settledSig) yield* touch(session, name)
    }
  })

/** A file-system event on the submissions folder. */
export const onEvent = (session: Session, relative: string) =>
  Effect.gen(function* () {
    const path = yield* Path.Path
    const rel = path.isAbsolute(relative) ? path.relative(session.settings.folder, relative) : relative
    const first = rel.split(/[\\/]/)[0] ?? ""
    if (first.endsWith(Submissions.RUN_JSON_SUFFIX)) return yield* touchMetadataOwner(session, first)
    return yield* touch(session, first)
  })
