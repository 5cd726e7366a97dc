/**
 * A run's zip (`Submissions`' zip half): its files read in memory under the caps a run's zip has.
 *
 * @internal
 */
import * as Issue from "../Issue.js"
import type { RunFile } from "../Submissions.js"
import * as Zip from "./zip.js"
import { compare, isHidden, RUN_JSON } from "./runNames.js"

// What a run zip may unpack to. Real runs unpack to under 1 MB; 32 MiB keeps the memory of a zip
// that is small on disk within budget (unpacking holds up to twice this, then the files are parsed).
export const DEFAULT_MAX_ZIP_BYTES = 32 * 1024 * 1024
// A run zip holds a handful of files (and their folders); more entries than this is not a run.
export const MAX_ZIP_ENTRIES = 1000

// ---------------------------------------------------------------------------------------------
// Zip
// ---------------------------------------------------------------------------------------------

/**
 * The files of a zip held in memory: base names mapped to bytes, plus issues. Directory entries,
 * hidden files and `__MACOSX` are skipped. Entries whose name is absolute or climbs out with `..`
 * are refused (path traversal). The whole zip is refused, with nothing unpacked, when it has more
 * than 1000 entries, entries that overlap (several directory entries pointing at the same bytes:
 * a zip bomb), two entries of one name (which is meant is ambiguous), an encrypted entry, or a
 * damaged one; and when the bytes actually unpacked — stored
 * or deflated, whatever the entries declare — pass `maxBytes` (unpacking stops there). An entry
 * whose declared size differs from what it unpacks to is refused too. `metadata` holds every
 * `run.json` entry, wherever it is in the zip, in entry-name order (more than one is ambiguous:
 * `loadRun` and `discover` then fail the run).
 *
 * A zip inside the zip: when it is the zip's only file (beside a run.json, hidden files and
 * folders), its files are the run's (`opened` names it), unpacked under the same checks and within
 * what is left of the same `maxBytes`; any other zip inside is reported, not opened, and so is a
 * zip inside the opened one (one level). This is how a run zipped twice reads everywhere: Codabench's
 * compute worker unzips a submission into `/app/input/res` (`Run._get_bundle`,
 * `compute_worker/compute_worker.py`, codalab/codabench c7dbc756), leaving `myrun.zip` there,
 * which `codabench score` opens; the same submission, imported, is this outer zip.
 *
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { Submissions } from "@stseval/formats"
 *
 * const zip = Submissions.readZip(fs.readFileSync("ECNU_run1primary.zip"), "ECNU_run1primary.zip")
 * zip.files.map((f) => f.name) // the run's files; zip.metadata its run.json, if any
 * ```
 * @since 0.1.0
 */
export const readZip = (
  bytes: Uint8Array,
  zipPath: string,
  maxBytes: number = DEFAULT_MAX_ZIP_BYTES,
  /** the zip is itself inside a zip: a zip in it is not opened @since 0.3.0 */
  nested = false
): {
  readonly files: ReadonlyArray<RunFile>
  readonly metadata: ReadonlyArray<RunFile>
  readonly issues: ReadonlyArray<Issue.Issue>
  /** the entry of the zip inside this one that was opened as the run (its only file) @since 0.3.0 */
  readonly opened?: string | undefined
} => {
  const issues: Array<Issue.Issue> = []
  const files: Array<RunFile> = []
  const metadata: Array<RunFile> = []
  const unpacked = new Map<string, Uint8Array>()
  // bytes counted against the cap: entry names, as what the entries unpack to (a zip inside gets the rest)
  let total: number
  try {
    const refused = new Set<string>()
    const list = Zip.entries(bytes, MAX_ZIP_ENTRIES, "refuse", maxBytes)
    total = list.reduce((n, e) => n + e.name.length, 0)
    for (const entry of list) {
      if (entry.name.endsWith("/") || entry.name.endsWith("\\")) continue
      if (unsafeEntryName(entry.name)) {
        refused.add(entry.name)
        continue
      }
      // Entries skipped below (hidden files, nested zips) are not unpacked at all.
      const parts = entry.name.split(/[\\/]/)
      if (parts.some(isHidden)) continue
      const content = Zip.unpack(bytes, entry, maxBytes - total, maxBytes)
      total += content.length
      unpacked.set(entry.name, content)
    }
    for (const name of [...refused].sort()) {
      issues.push(
        Issue.error("unknown-file", `${zipPath}!${name}`, `the zip entry "${name}" has an absolute path or climbs out with "..": it was skipped`, {
          expected: "a relative path inside the zip",
          found: name
        })
      )
    }
  } catch (e) {
    if (!(e instanceof Zip.ZipError)) throw e
    const { kind, message } = e
    const code = kind === "too-large" ? "too-large" : kind === "unsafe" ? "unsafe-zip" : kind === "encrypted" ? "encrypted" : "file-unreadable"
    return {
      files: [],
      metadata: [],
      issues: [
        Issue.error(code, zipPath, kind === "encrypted" ? message : `the zip cannot be read: ${message}`, {
          ...(kind === "too-large" ? { expected: `at most ${maxBytes} bytes uncompressed and ${MAX_ZIP_ENTRIES} entries` } : {})
        })
      ]
    }
  }
  const names = [...unpacked.keys()].sort(compare)
  // the zip's only file is a zip: the run zipped twice (see the doc)
  const runFiles = names.filter((n) => {
    const base = n.split(/[\\/]/).pop()!
    return base !== "" && base !== RUN_JSON
  })
  if (!nested && runFiles.length === 1 && /\.zip$/i.test(runFiles[0])) {
    const entryName = runFiles[0]
    const inner = readZip(unpacked.get(entryName)!, `${zipPath}!${entryName}`, maxBytes - total, true)
    const outerMetadata = names
      .filter((n) => n.split(/[\\/]/).pop() === RUN_JSON)
      .map((n) => ({ name: RUN_JSON, path: `${zipPath}!${n}`, bytes: unpacked.get(n)! }))
    return { files: inner.files, metadata: [...outerMetadata, ...inner.metadata], issues: [...issues, ...inner.issues], opened: entryName }
  }
  const seen = new Map<string, string>()
  for (const entryName of names) {
    // Zips made on Windows may separate folders with a backslash.
    const parts = entryName.split(/[\\/]/)
    const base = parts[parts.length - 1]
    if (base === "") continue
    const path = `${zipPath}!${entryName}`
    if (base === RUN_JSON) {
      metadata.push({ name: base, path, bytes: unpacked.get(entryName)! })
      continue
    }
    if (/\.zip$/i.test(base)) {
      issues.push(
        Issue.warning(
          "unknown-file",
          path,
          nested
            ? `a zip inside a zip inside the run is not opened: "${entryName}" (put the run's files in one zip)`
            : `a zip inside the zip is opened only when it is the zip's only file; "${entryName}" is beside other files, so it was not opened`,
          { found: entryName }
        )
      )
      continue
    }
    const earlier = seen.get(base)
    if (earlier !== undefined) {
      issues.push(
        Issue.error("unknown-file", path, `two entries of the zip have the file name "${base}" ("${earlier}" and "${entryName}"); the second was skipped`, {
          found: entryName
        })
      )
      continue
    }
    seen.set(base, entryName)
    files.push({ name: base, path, bytes: unpacked.get(entryName)! })
  }
  return { files, metadata, issues }
}

/**
 * Unpack a whole zip that is not a run (e.g. an organiser's bulk download of submissions) with the
 * same checks as a run zip: entries walked from the central directory, overlapping entries,
 * encryption, lying sizes and bad CRCs refused, output capped by the bytes actually produced.
 * Entries whose names climb out (`..`, absolute) are left out (`unzipEntries` lists them). Throws
 * an `Error` whose message says why the zip was refused.
 *
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { Submissions } from "@stseval/formats"
 *
 * // every entry, within the caps on bytes and entries (a zip bomb stops at the cap)
 * const entries = Submissions.unzipAll(fs.readFileSync("bundle.zip"), { maxBytes: 50 * 1024 * 1024, maxEntries: 1000 })
 * ```
 * @since 0.2.0
 */
export const unzipAll = (
  bytes: Uint8Array,
  options: { readonly maxBytes: number; readonly maxEntries: number }
): ReadonlyMap<string, Uint8Array> =>
  new Map(unzipEntries(bytes, options).flatMap((e) => (e.bytes !== undefined ? [[e.name, e.bytes] as const] : [])))

/**
 * One entry of `unzipEntries`: its bytes, or `unsafe` (absolute, or climbing out with `..`) and not unpacked.
 *
 * @since 0.3.0
 */
export interface ZipMember {
  readonly name: string
  readonly bytes: Uint8Array | undefined
  readonly unsafe: boolean
}

/**
 * Every file entry of a zip that is not a run, in the order of its central directory, duplicate
 * names included (a writer may store one file as several entries of the same name), with the
 * checks of `unzipAll`. An entry whose name is absolute or climbs out with `..` is returned
 * `unsafe`, without its bytes, so that the caller can say it was not used. Throws as `unzipAll`.
 *
 * @example
 * ```ts
 * import * as fs from "node:fs"
 * import { Submissions } from "@stseval/formats"
 *
 * const entries = Submissions.unzipEntries(fs.readFileSync("bundle.zip"), { maxBytes: 50 * 1024 * 1024, maxEntries: 1000 })
 * const names = entries.map((e) => e.name) // a name given twice is listed twice
 * ```
 * @since 0.3.0
 */
export const unzipEntries = (bytes: Uint8Array, options: { readonly maxBytes: number; readonly maxEntries: number }): ReadonlyArray<ZipMember> => {
  const out: Array<ZipMember> = []
  let total = 0
  for (const entry of Zip.entries(bytes, options.maxEntries, "keep", options.maxBytes)) {
    if (entry.name.endsWith("/") || entry.name.endsWith("\\")) continue
    if (unsafeEntryName(entry.name)) {
      out.push({ name: entry.name, bytes: undefined, unsafe: true })
      continue
    }
    const content = Zip.unpack(bytes, entry, options.maxBytes - total, options.maxBytes)
    total += content.length
    out.push({ name: entry.name, bytes: content, unsafe: false })
  }
  return out
}

const unsafeEntryName = (name: string): boolean =>
  name.startsWith("/") || name.startsWith("\\") || /^[A-Za-z]:/.test(name) || name.split(/[\\/]/).includes("..")
