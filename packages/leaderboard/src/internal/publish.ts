/**
 * Publishing: the board of the runs published so far, and the files written from it
 * (`leaderboard.{json,md,html}`, the public view, `state.json`, `status.json`), each written
 * atomically and only when it changed.
 *
 * @internal
 */
import { Files } from "@stseval/formats"
import { Uncertainty } from "@stseval/scoring"
import { Effect, FileSystem, Path, Semaphore } from "effect"
import * as Leaderboard from "../Leaderboard.js"
import * as State from "../State.js"
import * as Status from "../Status.js"
import { sha256, writeAtomic } from "./files.js"
import { writeLock } from "./lock.js"
import { byEntry, files, log } from "./session.js"
import type { BoardMemo, Published, Session } from "./session.js"

const iso = (ms: number) => new Date(ms).toISOString()

/**
 * The board of every published run under the session's rules, with its intervals (`--ci`) and
 * marks. It is ranked only when the published runs changed, its intervals and marks only when the
 * board without them changed: a status change alone recomputes nothing. Seeded: the same runs give
 * the same intervals and marks, whatever the order they were scored in.
 */
export const snapshot = (session: Session): Leaderboard.Leaderboard => {
  const records = [...session.tracks.values()].flatMap((t) => (t.published !== undefined ? [t.published] : []))
  const pending = session.counters.pending > 0
  const memo = session.boardMemo
  const same = memo !== undefined && memo.records.length === records.length && memo.records.every((r, i) => r === records[i])
  if (same && memo.pending === pending) return memo.board
  const ranked = same ? memo.ranked : rank(session, records)
  const board = decorate(session, ranked)
  session.boardMemo = { records, pending, ranked, board }
  return board
}

/** The board of the published runs and its ranking, and the board's JSON (the intervals' and marks' memo key) when they are on. */
const rank = (session: Session, records: ReadonlyArray<Published>): BoardMemo["ranked"] => {
  const s = session.settings
  const ranked = Leaderboard.rankRuns(records, { task: session.edition.id, signature: session.scorer.signature, runLimit: s.runLimit, deadline: s.deadline, primaryOnly: s.primaryOnly })
  const board: Leaderboard.Leaderboard = { ...ranked.board, hidden: s.hidden }
  return { ranked: { ...ranked, board }, key: s.ci === undefined && !s.marks ? "" : JSON.stringify(board) }
}

const decorate = (session: Session, { ranked, key }: BoardMemo["ranked"]): Leaderboard.Leaderboard => {
  const s = session.settings
  const board = ranked.board
  if (s.ci === undefined && !s.marks) return board
  if (session.intervalsMemo?.key === key) return session.intervalsMemo.board
  // While runs are queued or being scored, the board is published without intervals and marks: a
  // burst would otherwise pay one bootstrap per write over every run. A run re-scored keeps its
  // old result, and the board its intervals, until the new one is in.
  if (session.counters.pending > 0) return board
  let out = board
  let problem: string | undefined
  if (s.ci !== undefined) {
    // resamples this machine cannot hold for this many runs: the board without intervals, and a
    // warning, rather than a RangeError that would stop the watcher at every start
    const scored = board.runs.filter((r) => r.status === "scored")
    const figures = Uncertainty.figuresOf({ edition: session.edition, runs: scored })
    const beyond = Uncertainty.beyondMemory(s.ci.resamples, figures)
    if (beyond !== undefined) problem = `ci: ${Uncertainty.describeBeyond(s.ci.resamples, figures, beyond)}`
    else {
      const iv = Leaderboard.intervals(ranked, session.edition, s.ci)
      // a run not read again since the restart: no intervals yet (nothing memoised: the board's JSON
      // does not change when its aligned scores arrive)
      if (iv === undefined) return board
      if (Uncertainty.isError(iv)) problem = iv.message
      else out = Leaderboard.withIntervals(out, iv)
    }
  }
  if (s.marks) {
    const marks = Leaderboard.marks(ranked, session.edition)
    if (marks === undefined) return out
    out = Leaderboard.withMarks(out, marks)
  }
  session.intervalsMemo = { key, board: out, problem }
  return out
}

/** `state.json`: the published runs by entry (built from entries, so any name is a key). */
export const stateOf = (session: Session): State.StateFile => ({
  format: State.FORMAT,
  task: session.edition.id,
  signature: session.scorer.signature,
  runs: Object.fromEntries(
    [...session.tracks.values()].sort(byEntry).flatMap((t): Array<[string, State.StateRun]> => {
      const p = t.published
      if (p === undefined) return []
      return [
        [
          t.entry,
          {
            key: p.key,
            hash: p.hash,
            kind: p.kind,
            team: p.team,
            run: p.run ?? null,
            primary: p.primary,
            late: p.late,
            corrected: p.corrected,
            ...(p.postDeadline === true ? { postDeadline: true } : {}),
            ...(p.description !== undefined ? { description: p.description } : {}),
            ...(p.identityUnknown === true ? { identityUnknown: true as const } : {}),
            submittedAt: p.submittedAt,
            firstSeen: t.firstSeen,
            sig: p.sig
          }
        ]
      ]
    })
  )
})

/** `status.json` without its `updatedAt` (so that an unchanged status is not rewritten). */
export const statusOf = (session: Session, boardRuns: ReadonlyArray<Leaderboard.LeaderboardRun>): Omit<Status.Status, "updatedAt"> => {
  const onBoard = new Map(boardRuns.map((r) => [r.entry, r]))
  return {
    format: Status.FORMAT,
    phase: session.phase,
    idle: session.counters.pending === 0,
    pending: session.counters.pending,
    task: session.edition.id,
    signature: session.scorer.signature,
    startedAt: iso(session.startedAt),
    session: { scored: session.counters.scoredThisSession, cacheHits: session.counters.cacheHits },
    runs: Object.fromEntries(
      [...session.tracks.values()].sort(byEntry).map((t): [string, Status.StatusRun] => {
        const p = t.published
        const r = onBoard.get(t.entry)
        return [
          t.entry,
          {
            status: t.status,
            id: r?.id ?? null,
            team: p?.team ?? null,
            run: p?.run ?? null,
            hash: p?.hash ?? null,
            failure: p?.outcome.failure ?? null,
            errors: p?.outcome.errors ?? [],
            warnings: p?.outcome.warnings.length ?? 0,
            late: r?.late ?? false,
            corrected: r?.corrected ?? false,
            postDeadline: r?.postDeadline ?? false,
            submittedAt: p !== undefined ? iso(p.submittedAt) : null,
            firstSeen: iso(t.firstSeen),
            updatedAt: iso(t.updatedAt)
          }
        ]
      })
    )
  }
}

/** `status.json`'s text: its JSON without the time (what is compared), with the time added. */
const stamped = (statusJson: string): string => {
  const updatedAt: Pick<Status.Status, "updatedAt"> = { updatedAt: new Date().toISOString() }
  return `${statusJson.slice(0, -2)},\n  "updatedAt": ${JSON.stringify(updatedAt.updatedAt)}\n}\n`
}

/** During a first scan, a board at most this often (ms) until the scan's runs are in. */
export const START_BOARD_MS = 5000

/**
 * A first scan's board of part of its runs is not drawn when, at the scan's pace so far, its last
 * runs are in within this many ms: the final board, drawn right after, would make it wasted work
 * (a scan of just over `START_BOARD_MS` drew both, one after the other).
 */
export const IMMINENT_MS = 1000

/** Whether the first scan's runs still pending are in within `IMMINENT_MS`, at its pace so far (unknown before one is in: no). */
const endImminent = (session: Session): boolean => {
  const { pending, scoredThisSession, cacheHits } = session.counters
  const done = scoredThisSession + cacheHits
  return done > 0 && (pending * (Date.now() - session.startedAt)) / done < IMMINENT_MS
}

/**
 * Whether this write leaves the board as it is: the first scan (`starting`, or `--once`) has runs
 * queued or being scored, a board is on disk already (`written`: this session's, or the one it
 * restored), and the last board this session wrote (at `boardAt`, 0 = none) is less than
 * `START_BOARD_MS` old or the scan's end is imminent (`IMMINENT_MS`; a run slower than the pace
 * so far makes the estimate grow, and the board is drawn).
 */
export const startBoardWaits = (session: Session, written: boolean, boardAt: number): boolean =>
  (session.phase === "starting" || session.phase === "once") &&
  session.counters.pending > 0 &&
  written &&
  (Date.now() - boardAt < START_BOARD_MS || endImminent(session))

/** How often an open page asks whether the board changed (ms). */
export const POLL_MS = 2000

/**
 * The version file of a page: a one-line script naming the board's version. The page loads it
 * again every `POLL_MS` (a `<script>` element, which a page opened from disk may load, where a
 * `fetch` of a sibling file is refused) and reloads itself when the version is not its own.
 */
export const versionScript = (version: string): string => `window.stsevalBoardVersion&&window.stsevalBoardVersion(${JSON.stringify(version)});\n`

/**
 * An HTML page as published: it reloads itself as soon as the board changes (it polls
 * `versionFile`, written after the page, every `POLL_MS`), and every `refresh` seconds as well (a
 * meta refresh: the fallback when scripts are off), and says when it was last updated. The time
 * is added here, not in `leaderboard.json`, which holds no clock time.
 */
export const livePage = (html: string, updatedAt: string, refresh: number, live?: { readonly version: string; readonly versionFile: string }): string => {
  const meta = refresh > 0 ? `<meta http-equiv="refresh" content="${refresh}">` : ""
  const note = `<p class="updated">Last updated: <time datetime="${updatedAt}">${updatedAt.replace("T", " ").replace(/\.\d+Z$/, " UTC")}</time>${
    live !== undefined ? " (this page reloads when the leaderboard changes)" : refresh > 0 ? ` (this page reloads every ${refresh} s)` : ""
  }</p>`
  // the version script is the page's own file's sibling: 'self' lets it load, nothing else
  const csp = live === undefined ? html : html.replace("script-src 'unsafe-inline'", "script-src 'unsafe-inline' 'self'")
  const poll =
    live === undefined
      ? ""
      : `<script>(function(){var mine=${JSON.stringify(live.version)};window.stsevalBoardVersion=function(v){if(v!==mine)location.reload()};` +
        `setInterval(function(){var s=document.createElement("script");s.src=${JSON.stringify(live.versionFile)}+"?t="+Date.now();s.onload=s.onerror=function(){s.remove()};document.head.appendChild(s)},${POLL_MS})})()</script>`
  const withMeta = meta === "" ? csp : csp.replace(/<head[^>]*>/i, (m) => `${m}\n${meta}`)
  return withMeta.replace(/<body[^>]*>/i, (m) => `${m}\n${note}`).replace(/<\/body>/i, (m) => `${poll}${m}`)
}

/**
 * The least gap after a write in a burst (ms): a `status.json` per run grows with the runs (at 500
 * runs, a sixth of a first scan's CPU); one a second still shows progress, and the burst's end is
 * not held back (the publisher cuts the gap short).
 */
export const BURST_GAP_MS = 1000

/**
 * The wait after a write of `took` ms before the next. In a burst (`busy`) at least twice what it
 * took, and `BURST_GAP_MS`: a write costs time in proportion to the board, so a fixed gap made n
 * runs cost n writes of up to n runs each (quadratic); paced so, the session stays linear. With
 * nothing left to do, `publishInterval` alone, so the next run copied in is not held back.
 */
export const gapAfter = (took: number, busy: boolean, publishInterval: number): number => Math.max(publishInterval, busy ? Math.max(2 * took, BURST_GAP_MS) : 0)


/** How often outputs that could not be written (a full disk) are tried again, changed or not. */
export const OUTPUT_RETRY_MS = 2000

/** The most bytes of an earlier output read back at a start (a board of 2,000 failing runs is about 30 MB). */
const MAX_SEED_BYTES = 256 * 1024 * 1024

/**
 * What an earlier session left, as the publisher's "last written": a board (or public board) on
 * disk whose pages are there too, and the state, so that a restart over an unchanged folder (a
 * cron job's `watch --once` every minute) rewrites none of them. leaderboard.json is written last
 * of all, so its bytes vouch for every file of the write that made it. Read with a run's checks;
 * anything unreadable is "" (written again).
 */
const lastWritten = (session: Session) =>
  Effect.gen(function* () {
    const path = yield* Path.Path
    const fs = yield* FileSystem.FileSystem
    const out = (name: string) => path.join(session.settings.out, name)
    const read = (name: string) =>
      Files.readFile(out(name), { maxBytes: MAX_SEED_BYTES, what: name }).pipe(
        Effect.map((bytes) => new TextDecoder().decode(bytes)),
        Effect.orElseSucceed(() => "")
      )
    const present = (names: ReadonlyArray<string>) => Effect.forEach(names, (n) => fs.exists(out(n)).pipe(Effect.orElseSucceed(() => false))).pipe(Effect.map((e) => e.every(Boolean)))
    const board = (yield* present([files.leaderboardMd, files.leaderboardHtml, files.leaderboardVersion])) ? yield* read(files.leaderboard) : ""
    // Its marks stand for the same board without them: the same runs (their hashes), figures and
    // ranks give the same marks. Until every run is read again after the restart, the board
    // without marks would otherwise be written, and then the same board with them once more.
    // (Not with intervals, which change each figure's fields; they are computed again.)
    if (board !== "" && session.intervalsMemo === undefined) {
      try {
        const { marks, ...base } = JSON.parse(board) as Leaderboard.Leaderboard
        if (marks !== undefined && base.intervals === undefined) {
          session.intervalsMemo = { key: JSON.stringify(base), board: { ...base, marks }, problem: undefined }
        }
      } catch {
        // not JSON: written again
      }
    }
    // The public board's pages were written (after its JSON) in a write that ended with a
    // leaderboard.json whose public view it is: only then do its bytes vouch for them.
    const pub = board !== "" && (yield* present([files.publicMd, files.publicHtml, files.publicVersion])) ? yield* read(files.publicJson) : ""
    const vouched = (() => {
      try {
        return pub !== "" && JSON.stringify(Leaderboard.publicView(JSON.parse(board) as Leaderboard.Leaderboard, session.settings.hidden), null, 2) + "\n" === pub
      } catch {
        return false
      }
    })()
    return {
      board,
      public: vouched ? pub : "",
      state: yield* read(files.state),
      status: "",
      problem: undefined as string | undefined
    }
  })

/**
 * A publisher for a session: writes what changed since its last write. `leaderboard.json` is
 * written last, so a reader that sees it new sees the other files new too. A failed write is
 * logged, never fatal.
 */
export const publisher = (session: Session) =>
  Effect.gen(function* () {
    const lock = yield* Semaphore.make(1)
    // what was last written, by what it was made of: a file is written again only when its board
    // (or state, or status) changed, so a burst of runs does not rewrite what stayed the same
    const last: { board: string; public: string; state: string; status: string; problem: string | undefined } = yield* lastWritten(session)
    // the last board and the JSON made from it (and the state, from the same published runs)
    let made: { readonly board: Leaderboard.Leaderboard; readonly boardJson: string; readonly stateJson: string } | undefined
    // when this session last wrote a board (0: not yet; a board restored from disk counts as now)
    let boardAt = last.board !== "" ? Date.now() : 0
    const publish: Effect.Effect<void, never, FileSystem.FileSystem | Path.Path> = lock.withPermits(1)(
      Effect.gen(function* () {
        const path = yield* Path.Path
        const fs = yield* FileSystem.FileSystem
        const out = (name: string) => path.join(session.settings.out, name)
        // the output folder removed while watching is made again (with the cache folder and the lock)
        if (!(yield* fs.exists(session.settings.cacheDir).pipe(Effect.orElseSucceed(() => false)))) {
          yield* fs.makeDirectory(session.settings.cacheDir, { recursive: true })
          yield* writeLock(session.settings.out)
          yield* log(session, "warn", `the output folder ${session.settings.out} was removed; made it again`)
          last.board = last.public = last.state = last.status = ""
          made = undefined
        }
        // The first scan (or `--once`) while runs are still queued or being scored: the board on
        // disk stays until the scan's runs are in (or `START_BOARD_MS` passes) and only `status.json`
        // follows them: a board rebuilt every few runs was a third of a first scan's time.
        if (startBoardWaits(session, last.board !== "", boardAt)) {
          const statusJson = JSON.stringify(statusOf(session, made?.board.runs ?? []), null, 2)
          if (statusJson !== last.status) {
            yield* writeAtomic(out(files.status), stamped(statusJson))
            last.status = statusJson
          }
          return
        }
        const board = snapshot(session)
        const problem = session.intervalsMemo?.problem
        if (problem !== undefined && problem !== last.problem) yield* log(session, "warn", `no intervals on the leaderboard: ${problem}`)
        last.problem = problem
        // the same board (a status change alone) is not stringified again, nor is the state
        const same = made?.board === board ? made : undefined
        const boardJson = same?.boardJson ?? JSON.stringify(board, null, 2) + "\n"
        if (boardJson !== last.board) {
          const now = new Date().toISOString()
          // the public view only when it changed (in the hidden phase it does not with each score)
          const pub = Leaderboard.publicView(board, session.settings.hidden)
          const pubJson = JSON.stringify(pub, null, 2) + "\n"
          const pubVersion = sha256(pubJson).slice(0, 16)
          let pubRendered: ReturnType<typeof session.renderer.render> | undefined
          if (pubJson !== last.public) {
            pubRendered = session.renderer.render(pub, session.edition)
            // the JSON first: a reader that sees a page new sees the JSON new
            yield* writeAtomic(out(files.publicJson), pubJson)
            yield* writeAtomic(out(files.publicMd), pubRendered.md)
            yield* writeAtomic(out(files.publicHtml), livePage(pubRendered.html, now, session.settings.refresh, { version: pubVersion, versionFile: files.publicVersion }))
            // after the page: a page that sees a new version loads a page that has it
            yield* writeAtomic(out(files.publicVersion), versionScript(pubVersion))
            last.public = pubJson
          }
          // the same table twice outside the hidden phase, unless the renderer may show the view
          const full = pubRendered !== undefined && !session.settings.hidden && session.renderer.sameForPublic === true ? pubRendered : session.renderer.render(board, session.edition)
          yield* writeAtomic(out(files.leaderboardMd), full.md)
          // each page's version: its board's content (the public page changes only when the public board does)
          const version = sha256(boardJson).slice(0, 16)
          // (`--once` too: a cron job's next run changes the board under an open page)
          yield* writeAtomic(out(files.leaderboardHtml), livePage(full.html, now, session.settings.refresh, { version, versionFile: files.leaderboardVersion }))
          yield* writeAtomic(out(files.leaderboardVersion), versionScript(version))
        }
        const stateJson = same?.stateJson ?? JSON.stringify(stateOf(session), null, 2) + "\n"
        made = { board, boardJson, stateJson }
        if (stateJson !== last.state) {
          yield* writeAtomic(out(files.state), stateJson)
          last.state = stateJson
        }
        // stringified once: the status without its time is what is compared, and the time is
        // added to the same text
        const statusJson = JSON.stringify(statusOf(session, board.runs), null, 2)
        if (statusJson !== last.status) {
          yield* writeAtomic(out(files.status), stamped(statusJson))
          last.status = statusJson
        }
        // last: a reader that sees it new sees the other files (state and status too) new
        if (boardJson !== last.board) {
          yield* writeAtomic(out(files.leaderboard), boardJson)
          last.board = boardJson
          boardAt = Date.now()
          session.settings.onPublish?.(board)
        }
        if (session.outputFailure !== undefined) yield* log(session, "info", "the outputs are written again")
        session.outputFailure = undefined
      }).pipe(
        Effect.catch((e) => {
          // logged once per failure, and kept: `watch --once` fails with it, and "state flushed" is
          // not claimed (the log line itself may not reach watch.log on a full disk)
          const first = session.outputFailure === undefined
          session.outputFailure = Files.describe(e)
          // in words with the file ("...: no space is left on the device (ENOSPC)"), not Effect's "Unknown: FileSystem.writeFile"
          return first ? log(session, "error", `writing the outputs failed: ${session.outputFailure}${session.settings.once ? "" : `; tried again every ${OUTPUT_RETRY_MS / 1000} s`}`) : Effect.void
        })
      )
    )
    return publish
  })
