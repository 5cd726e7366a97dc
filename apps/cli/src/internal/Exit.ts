/**
 * Exit codes of the `stseval` command line, one rule for every command and every stseval
 * executable: 0 everything valid, 1 some run (or input) has an error, 2 a usage error. The rule
 * lives in tooling/app, shared with `stseval-report` and `stseval-watcher`.
 */
export { ExitCode, exitCodeOf, INTERNAL_ERROR, reportDefects, teardown, UsageError } from "@stseval/app/exit"
