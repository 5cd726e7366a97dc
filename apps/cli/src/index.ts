/**
 * @stseval/cli — the `stseval` command line. `run` is the program the executable runs;
 * `runInProcess` runs it inside the calling process, with its own output streams and environment.
 *
 * @since 0.1.0
 */
export { run, runInProcess } from "./Main.js"
export type { Io } from "./Main.js"
