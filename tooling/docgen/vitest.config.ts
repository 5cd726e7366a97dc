import { project } from "@stseval/vitest-config"

export default project("docgen")
