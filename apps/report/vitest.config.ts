import { project } from "@stseval/vitest-config"

// The tests score the shipped SICK example and spawn the bundled executable.
export default project("report", { testTimeout: 120_000 })
