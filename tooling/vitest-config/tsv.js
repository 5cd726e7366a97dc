// The reference tables in ../shared/reference are tab-separated with one header line: read once here.
import * as fs from "node:fs"

/**
 * The rows of a tab-separated file with a header line, each split into its fields (the header left out).
 *
 * @param {string} file
 * @returns {Array<Array<string>>}
 */
export const tsvRows = (file) =>
  fs
    .readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .slice(1)
    .map((l) => l.split("\t"))
