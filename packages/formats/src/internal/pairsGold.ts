/**
 * A data file of pairs read as gold (SICK's, SemRel's): said once, its pair IDs and gold columns,
 * and an error when it holds no gold column, since then it is the task's input file given in place
 * of the gold.
 *
 * @internal
 */
import * as Issue from "../Issue.js"
import type { GoldTable } from "../Format.js"

/** What the error says when the file is an input file: the message, the header expected and the column missing. */
export interface InputGiven {
  readonly message: string
  readonly expected: string
  readonly field: string
}

/** The gold table of `pairs` with `columns`, the reader's `issues`, and `inputGiven`'s error when `noGold`. */
export const pairsAsGold = (
  text: { readonly file: string },
  read: Issue.Parsed<{ readonly pairs: ReadonlyArray<{ readonly pairId: string }> }>,
  noGold: boolean,
  inputGiven: InputGiven,
  columns: GoldTable["columns"]
): Issue.Parsed<GoldTable> => {
  const pairs = read.value.pairs
  const { message, ...where } = inputGiven
  return {
    value: { file: text.file, length: pairs.length, ids: pairs.map((p) => p.pairId), columns },
    issues: noGold ? [...read.issues, Issue.error("missing-header", text.file, message, where)] : read.issues
  }
}
