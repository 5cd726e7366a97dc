import * as path from "node:path"
import { runExamples } from "@stseval/vitest-config/readme"
import { describe, expect, it } from "vitest"

describe("README.md", () => {
  it("its examples run and what they assert holds", async () => {
    expect(await runExamples(path.resolve(import.meta.dirname, ".."))).toBeGreaterThan(0)
  })
})
