// Tiny readers for the reference tests only. @stseval/formats is the real parser (being written
// concurrently); these read just enough of each format to line pairs up, and fail loudly on anything
// unexpected rather than guessing.
import * as fs from "node:fs"
import * as path from "node:path"

/**
 * Repository root (packages/metrics/test/support -> four levels up) and `../shared` beside it;
 * STSEVAL_SHARED overrides the location (as in the scoring package's tests).
 */
export const repoRoot = path.resolve(import.meta.dirname, "../../../..")
export const sharedDir = process.env["STSEVAL_SHARED"] ?? path.resolve(repoRoot, "../shared")
export const hasShared = fs.existsSync(path.join(sharedDir, "reference"))

/** Lines of a text file: BOM dropped, CRLF / CR / LF, no phantom line after a final newline. */
export const lines = (file: string): Array<string> => {
  let text = fs.readFileSync(file, "utf8")
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1)
  const out = text.split(/\r\n|\r|\n/)
  if (out.length > 0 && out[out.length - 1] === "") out.pop()
  return out
}

const num = (s: string, where: string): number => {
  const v = Number(s)
  if (s.trim() === "" || !Number.isFinite(v)) throw new Error(`${where}: not a number: ${JSON.stringify(s)}`)
  return v
}

/** Gold scores by line; `undefined` for a blank line (pair not annotated, STS 2015/2016). */
export const readStsGold = (file: string): Array<number | undefined> =>
  lines(file).map((l, i) => (l.trim() === "" ? undefined : num(l.split("\t")[0], `${file}:${i + 1}`)))

/** STS Benchmark csv: TAB-separated, quoting off, the score is field 5. */
export const readStsbGold = (file: string): Array<number> =>
  lines(file).map((l, i) => num(l.split("\t")[4], `${file}:${i + 1}`))

/** Run scores by line: the first TAB/space-separated field ('#' lines are comments in the scorer). */
export const readRun = (file: string): Array<number> =>
  lines(file)
    .filter((l) => !l.startsWith("#"))
    .map((l, i) => num(l.trim().split(/\s+/)[0], `${file}:${i + 1}`))

/**
 * Align a run with its gold by line number, skipping non-annotated pairs. A run longer than the
 * gold (STS 2017 track 6: 500 input lines, 250 gold) is scored on its first gold.length lines.
 */
export const alignByLine = (
  run: ReadonlyArray<number>,
  gold: ReadonlyArray<number | undefined>
): { x: Float64Array; y: Float64Array } => {
  if (run.length < gold.length) throw new Error(`run has ${run.length} lines, gold ${gold.length}`)
  const xs: Array<number> = []
  const ys: Array<number> = []
  for (let i = 0; i < gold.length; i++) {
    const g = gold[i]
    if (g === undefined) continue
    xs.push(run[i])
    ys.push(g)
  }
  return { x: Float64Array.from(xs), y: Float64Array.from(ys) }
}

/** A TAB file with a header, as records keyed by column name. */
export const readTable = (file: string): Array<Record<string, string>> => {
  const [head, ...rows] = lines(file)
  const cols = head.split("\t")
  return rows
    .filter((r) => r !== "")
    .map((r) => {
      const fields = r.split("\t")
      const rec: Record<string, string> = {}
      cols.forEach((c, i) => (rec[c] = fields[i]))
      return rec
    })
}
