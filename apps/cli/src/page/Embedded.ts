/**
 * What `stseval page check` writes into the page for its worker: the edition (a built-in id, or a
 * user edition resolved and encoded, so that the page needs no file of the organiser's) and, when
 * given, the public development gold's files (base64, under the gold's own name).
 */
export interface Embedded {
  readonly task: { readonly id: string; readonly edition?: unknown }
  readonly gold?: { readonly name: string; readonly files: ReadonlyArray<{ readonly path: string; readonly base64: string }> }
  /** the CLI's limits, so the page refuses what the CLI refuses */
  readonly limits: { readonly timeMs: number }
}
