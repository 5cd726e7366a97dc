import { project } from "@stseval/vitest-config"

// Every CLI test spawns the real executable (through tsx), some of them several times; on a loaded
// two-core CI machine running other test files beside them one spawn can take ten seconds.
export default project("cli", { testTimeout: 180_000 })
