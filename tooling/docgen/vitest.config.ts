import { project } from "@stseval/vitest-config"

export default project("docgen", { testTimeout: 180_000 })
