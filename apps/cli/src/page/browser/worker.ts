/**
 * The check page's worker (a Blob-URL worker the page starts from its own text): it receives the
 * embedded edition and gold and the dropped files, checks them (`Check.check`), and answers with
 * the text and JSON, saying how far it is as it goes. The page ends it at the CLI's time budget.
 */
import { Effect } from "effect"
import { check } from "./Check.js"
import type { Checked, Dropped } from "./Check.js"
import type { Embedded } from "../Embedded.js"

export type ToWorker = { readonly type: "check"; readonly embedded: Embedded; readonly files: ReadonlyArray<Dropped> }
export type FromWorker =
  | { readonly type: "progress"; readonly stage: string; readonly scored: boolean }
  | { readonly type: "done"; readonly checked: Checked }
  | { readonly type: "error"; readonly message: string }

interface WorkerScope {
  onmessage: ((event: { readonly data: ToWorker }) => void) | null
  postMessage: (message: FromWorker) => void
}
const scope = globalThis as unknown as WorkerScope

scope.onmessage = (event) => {
  const { embedded, files } = event.data
  const post = (m: FromWorker) => scope.postMessage(m)
  Effect.runPromise(check(embedded, files, (stage, scored) => post({ type: "progress", stage, scored }))).then(
    (checked) => post({ type: "done", checked }),
    (e: unknown) => post({ type: "error", message: e instanceof Error ? e.message : String(e) })
  )
}
