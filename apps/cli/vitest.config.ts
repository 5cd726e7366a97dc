import { project } from "@stseval/vitest-config"

// The CLI tests run the CLI in-process; a few spawn the real executable (through tsx), which on a
// loaded two-core CI machine running other test files beside them can take ten seconds.
export default project("cli", { testTimeout: 180_000 })
