/**
 * @internal A data file of pairs read as gold (SICK's, SemRel's), said once: its pair IDs and gold
 * columns, with an error when it has no gold column (`noGold`: the task's input file given as gold).
 */
import * as Issue from "../Issue.js"
import type { GoldTable } from "../Format.js"

export const pairsAsGold = (
  text: { readonly file: string },
  read: Issue.Parsed<{ readonly pairs: ReadonlyArray<{ readonly pairId: string }> }>,
  noGold: boolean,
  inputGiven: { readonly message: string; readonly expected: string; readonly field: string },
  columns: GoldTable["columns"]
): Issue.Parsed<GoldTable> => {
  const { message, ...where } = inputGiven
  return {
    value: { file: text.file, length: read.value.pairs.length, ids: read.value.pairs.map((p) => p.pairId), columns },
    issues: noGold ? [...read.issues, Issue.error("missing-header", text.file, message, where)] : read.issues
  }
}
