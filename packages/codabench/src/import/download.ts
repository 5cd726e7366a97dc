/**
 * Reading a download: its entries in order (a folder of zips, or the bulk zip through formats'
 * bomb-safe reader), v1.22's blocks of one name joined, failed.txt, and the CSV export.
 */
import { Csv, Files, Issue, Submissions } from "@stseval/formats"
import { Effect, FileSystem, Path } from "effect"
import { ImportError, MAX_BULK_BYTES, MAX_BULK_ENTRIES } from "./model.js"
import type { Options, Result, Skipped } from "./model.js"
import { parseDownloadName } from "./names.js"
import type { DownloadName } from "./names.js"

/** The submissions CSV export is a line per submission; anything near this is not one. */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024

/** What an import found on its way: problems (nothing is written if any), exclusions, notes. */
export interface Findings {
  readonly problems: Array<Skipped>
  readonly skipped: Array<Skipped>
  readonly notes: Array<string>
}

export const short = (s: string, n = 80) => (s.length <= n ? s : `${s.slice(0, n - 3)}...`)

/** A submission file of the download, its entries joined. */
export interface Entry {
  /** the entry's name in the download */
  readonly source: string
  readonly name: DownloadName
  readonly bytes: () => Effect.Effect<Uint8Array, string>
  /** how many zip entries of this name were joined (v1.22 blocks) */
  readonly parts: number
}


/** The CSV columns we read, by their normalised header (lower case, letters and digits only). */
const HEADERS = {
  id: ["submissionid", "id", "pk"],
  owner: ["owner", "username"],
  created: ["createdwhen", "createdat", "created"],
  status: ["status"],
  phase: ["phase", "phasename"],
  filename: ["filename"]
} as const

type Field = keyof typeof HEADERS

export interface Row {
  readonly line: number
  readonly get: (f: Field) => string | undefined
}

export interface Manifest {
  readonly name: string
  readonly rows: ReadonlyArray<Row>
  readonly hasId: boolean
}

const normalise = (h: string) => h.toLowerCase().replace(/[^a-z0-9]/g, "")

/**
 * The rows of the submissions export, read by `@stseval/formats`' `Csv` (RFC 4180 through
 * csv-parse; each row with the physical line it starts on). The first error (not text, not CSV, no
 * Owner column) is the failure, as `Issue.format` gives it: file, line, what was expected.
 */
const readManifest = (bytes: Uint8Array, file: string): Manifest | { readonly error: string } => {
  const csv = Csv.decode(bytes, file)
  const error = csv.issues.find((i) => i.severity === "error")
  if (error !== undefined) return { error: Issue.format(error) }
  // a row of empty fields (`,,,`, as spreadsheets pad an export) is no submission
  const [head, ...records] = csv.records.filter((r) => r.fields.some((f) => f.trim() !== ""))
  if (head === undefined) return { error: `${file} is empty` }
  const header = head.fields.map(normalise)
  const column = (f: Field) => header.findIndex((h) => (HEADERS[f] as ReadonlyArray<string>).includes(h))
  const at: Record<Field, number> = { id: column("id"), owner: column("owner"), created: column("created"), status: column("status"), phase: column("phase"), filename: column("filename") }
  if (at.owner < 0) return { error: `${file}:${head.line}: no Owner column (header: ${head.fields.join(", ")}; expected Codabench's export: Submission ID, File Name, Owner, Created When, Status, Phase)` }
  const rows = records.map((record): Row => ({
    line: record.line,
    get: (f) => {
      const v = at[f] >= 0 ? record.fields[at[f]]?.trim() : undefined
      return v === undefined || v === "" ? undefined : v
    }
  }))
  return { name: file, rows, hasId: at.id >= 0 }
}

/** Steps 1 to 3 of `importSubmissions`: the download's submission files and its CSV export. */
export const readDownload = (input: string, options: Options, found: Findings) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const fail = (reason: string) => new ImportError({ reason })
    const { problems, skipped, notes } = found
    const problem = (source: string, reason: string) => problems.push({ source, reason })

    // 1. The entries of the download, in order.
    const info = yield* fs.stat(input).pipe(Effect.mapError(() => fail(`${input} does not exist`)))
    const entries: Array<{ readonly name: string; readonly bytes: () => Effect.Effect<Uint8Array, string> }> = []
    const csvs: Array<{ readonly name: string; readonly bytes: Uint8Array }> = []
    let failedTxt: string | undefined
    const take = (name: string, read: () => Effect.Effect<Uint8Array, string>) =>
      Effect.gen(function* () {
        const base = name.split(/[\\/]/).pop() ?? name
        if (base.startsWith(".") || name.split(/[\\/]/).includes("__MACOSX")) return skipped.push({ source: name, reason: "a hidden file, not a submission" })
        if (/\.csv$/i.test(base)) return csvs.push({ name: base, bytes: yield* read().pipe(Effect.mapError(fail)) })
        if (base === "failed.txt") return (failedTxt = new TextDecoder().decode(yield* read().pipe(Effect.mapError(fail))))
        if (!/\.zip$/i.test(base)) return problem(name, "not a submission zip (Codabench's downloads hold only the submitted zips, the CSV export and failed.txt)")
        entries.push({ name, bytes: read })
      })
    if (info.type === "Directory") {
      for (const name of (yield* fs.readDirectory(input).pipe(Effect.mapError((e) => fail(e.message)))).slice().sort()) {
        const full = path.join(input, name)
        const kind = yield* fs.stat(full).pipe(Effect.map((s) => s.type), Effect.orElseSucceed(() => "Unknown" as const))
        if (kind === "Directory") {
          problem(name, "a folder: the download's submissions are zips at its top level")
          continue
        }
        // formats' reader (regular files only, capped): a FIFO or a device among them is refused
        // before anything is written, never read forever
        const what = /\.zip$/i.test(name) ? "the submission zip" : "a file of the download"
        yield* Files.inspect(full, { what }).pipe(Effect.mapError((e) => fail(e.message)))
        yield* take(name, () => Files.readFile(full, { what, maxBytes: MAX_BULK_BYTES }).pipe(Effect.mapError((e) => e.message)))
      }
    } else {
      const bytes = yield* Files.readFile(input, { what: "the download", maxBytes: MAX_BULK_BYTES }).pipe(Effect.mapError((e) => fail(e.message)))
      let members: ReadonlyArray<Submissions.ZipMember>
      try {
        // formats' bomb-safe reader, in order and with duplicate names: a bulk download is outside input like any run zip
        members = Submissions.unzipEntries(bytes, { maxBytes: MAX_BULK_BYTES, maxEntries: MAX_BULK_ENTRIES })
      } catch (e) {
        return yield* fail(`${input} is not a zip: ${(e as Error).message}`)
      }
      for (const m of members) {
        if (m.unsafe) problem(m.name, "its name is absolute or climbs out of the zip with \"..\": not unpacked")
        else yield* take(m.name, () => Effect.succeed(m.bytes!))
      }
    }

    // 2. Entries of one name: Codabench up to v1.22 wrote each block of a file as an entry (joined in order).
    const byName = new Map<string, Array<(typeof entries)[number]>>()
    for (const e of entries) byName.set(e.name, [...(byName.get(e.name) ?? []), e])
    const files: Array<Entry> = []
    for (const [name, list] of byName) {
      const parsed = parseDownloadName(name.split(/[\\/]/).pop() ?? name)
      if (list.length > 1 && parsed._tag !== "v1.22-") {
        problem(name, `the download holds ${list.length} entries of this name, and only Codabench up to v1.22 (ID_<id>_<file>) writes a file as several entries`)
        continue
      }
      const bytes = () =>
        Effect.gen(function* () {
          const parts: Array<Uint8Array> = []
          for (const part of list) parts.push(yield* part.bytes())
          return new Uint8Array(Buffer.concat(parts))
        })
      files.push({ source: name, name: parsed, bytes, parts: list.length })
    }
    if (failedTxt !== undefined) {
      // The browser's note on what it could not fetch: `${file.name} (${err.message})` per line.
      for (const line of failedTxt.split(/\r?\n/).slice(1).filter((l) => l.trim() !== "")) problem(line.replace(/ \([^()]*\)$/, ""), `Codabench could not download it (failed.txt: ${short(line, 200)})`)
    }
    if (files.length === 0 && problems.length === 0) return yield* fail(`${input} holds no submission zips (expected bulk_submissions.zip or a folder of the zips it holds)`)
    const kinds = new Set(files.map((f) => f.name._tag))
    const download: Result["download"] = kinds.has("v1.23+") ? "v1.23+" : kinds.has("v1.22-") ? "v1.22-" : "other"

    // 3. The CSV export.
    let manifestFile: { readonly name: string; readonly bytes: Uint8Array } | undefined
    if (options.manifest !== undefined) {
      const read = Files.readFile(options.manifest, { what: "the manifest", maxBytes: MAX_MANIFEST_BYTES })
      manifestFile = { name: path.basename(options.manifest), bytes: yield* read.pipe(Effect.mapError((e) => fail(`the manifest ${e.message}`))) }
    } else if (csvs.length === 1) manifestFile = csvs[0]
    else if (csvs.length > 1) return yield* fail(`${input} holds several CSV files (${csvs.map((c) => c.name).join(", ")}); say which is the submissions export with --manifest`)
    const manifest = manifestFile !== undefined ? readManifest(manifestFile.bytes, manifestFile.name) : undefined
    if (manifest !== undefined && "error" in manifest) return yield* fail(manifest.error)
    if (manifest === undefined) {
      notes.push(
        download === "v1.23+"
          ? "no CSV export: owners, phases and days come from the names; whether a submission failed on Codabench is unknown (a failed one is imported, and rank fails it again)"
          : "no CSV export: only zips named Team_runN can be imported"
      )
    }
    return { files, download, manifest }
  })
