/**
 * The module an isolated scorer runs when the program gave none (`Isolation.useEntry`): this
 * package's own, as a library's user has it (`dist/internal/entry.js`).
 *
 * @internal
 */
import { parentPort } from "node:worker_threads"
import { serve } from "./worker.js"

if (parentPort !== null) serve(parentPort)
