/** Where each gold pair's prediction is, by pair ID, with evaluation.py's checks (shared by `match` and the format). */
import * as Issue from "../Issue.js"
import { PAIR_ID } from "./files.js"
import type { Parsed } from "../Issue.js"

/**
 * A gold file as a run's issues name it: its file name, never its folder (the issues of a run reach
 * its authors and public boards; the folder is the server's).
 */
export const nameOf = (file: string): string => file.slice(Math.max(file.lastIndexOf("/"), file.lastIndexOf("\\")) + 1)

/**
 * evaluation.py's pair checks: as many rows as gold pairs, no unknown and no repeated pair ID,
 * and (beyond it) no gold pair without a prediction. Gives, for each gold pair, the index of its
 * prediction (-1 when there is none), and an error per problem.
 */
export const locate = (
  goldFile: string,
  goldIds: ReadonlyArray<string>,
  file: string,
  runIds: ReadonlyArray<string>,
  lines: Int32Array
): Parsed<Int32Array> => {
  const issues: Array<Issue.Issue> = []
  const n = goldIds.length
  if (runIds.length !== n) {
    issues.push(
      Issue.error(
        "length-mismatch",
        file,
        `the submission has ${runIds.length} prediction rows but the gold (${nameOf(goldFile)}) has ${n} pairs; evaluation.py refuses it ("different number of lines")`,
        { ...(runIds.length > n ? { line: lines[n] } : {}), expected: `${n} rows`, found: `${runIds.length} rows` }
      )
    )
  }
  const index = new Map<string, number>()
  goldIds.forEach((id, i) => index.set(id, i))
  const at = new Int32Array(n).fill(-1)
  for (let k = 0; k < runIds.length; k++) {
    const id = runIds[k]
    if (id.trim() === "") continue // parseRun reported it
    const i = index.get(id)
    if (i === undefined) {
      issues.push(
        Issue.error("unknown-pair", file, `${PAIR_ID} ${Issue.excerpt(id)} on line ${lines[k]} is not in the gold; evaluation.py refuses it ("invalid pair id")`, {
          line: lines[k],
          field: PAIR_ID,
          expected: `a pair ID of ${nameOf(goldFile)}`,
          found: id
        })
      )
    } else if (at[i] !== -1) {
      issues.push(
        Issue.error(
          "duplicate-pair",
          file,
          `${PAIR_ID} ${Issue.excerpt(id)} on line ${lines[k]} was already predicted on line ${lines[at[i]]}; evaluation.py refuses it ("repeated id")`,
          { line: lines[k], field: PAIR_ID, expected: "each pair ID once", found: id }
        )
      )
    } else at[i] = k
  }
  const missing: Array<string> = []
  for (let i = 0; i < n; i++) if (at[i] === -1) missing.push(goldIds[i])
  if (missing.length > 0) {
    issues.push(
      Issue.error("missing-pair", file, `${missing.length} of the ${n} gold pairs have no prediction (the first: ${missing.slice(0, 3).map(Issue.excerpt).join(", ")})`, {
        field: PAIR_ID,
        expected: `a prediction for every pair of ${nameOf(goldFile)}`,
        found: `${n - missing.length} of ${n} pairs predicted`
      })
    )
  }
  return { value: at, issues }
}
