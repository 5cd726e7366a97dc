import { project } from "@stseval/vitest-config"

// The tests spawn the bundled service and stop it with signals.
export default project("watcher", { testTimeout: 120_000 })
