import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { documents } from "../scripts/schemas.js"
import { repoRoot } from "./support/cli.js"

describe("docs/schemas", () => {
  it.each(Object.entries(documents()))("%s is the schema the code emits (regenerate with pnpm --filter @stseval/cli schemas)", (name, doc) => {
    const committed = JSON.parse(fs.readFileSync(path.join(repoRoot, "docs/schemas", name), "utf8")) as unknown
    expect(committed).toEqual(JSON.parse(JSON.stringify(doc)))
  })
})
