// Test helpers: locating ../shared beside the checkout and reading the cocor reference TSVs.
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const here = path.dirname(fileURLToPath(import.meta.url))
export const repoRoot = path.resolve(here, "../../..")
/** `../shared` beside the checkout; STSEVAL_SHARED overrides it (as in the scoring package's tests). */
export const sharedDir = process.env["STSEVAL_SHARED"] ?? path.resolve(repoRoot, "../shared")
export const hasShared = fs.existsSync(path.join(sharedDir, "reference"))
export const fixture = (name: string): string => path.join(here, "fixtures", name)

export type Row = Record<string, string>

export const readTsv = (file: string): ReadonlyArray<Row> => {
  const lines = fs.readFileSync(file, "utf8").split(/\r?\n/).filter((l) => l.length > 0)
  const header = lines[0].split("\t")
  return lines.slice(1).map((line) => {
    const cells = line.split("\t")
    const row: Row = {}
    header.forEach((h, i) => (row[h] = cells[i] ?? ""))
    return row
  })
}

/** Parse a cocor cell; NA becomes undefined. */
export const num = (cell: string | undefined): number | undefined =>
  cell === undefined || cell === "NA" ? undefined : Number(cell)

/**
 * |actual - expected| <= rel * |expected|, with an absolute floor for values printed as exact 0.
 * cocor prints p = 0 when 1 - F(x) underflows; we compute that tail accurately (F(-x)), so for a
 * reference 0 we require a value below 1e-15, i.e. 0 to double precision at cocor's scale.
 */
export const close = (actual: number, expected: number, rel = 1e-8): boolean =>
  expected === 0 ? Math.abs(actual) < 1e-15 : Math.abs(actual - expected) <= rel * Math.abs(expected)
