import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { sync, versionFiles } from "../src/versions.js"

describe("the VERSION constants of signatures (versions.ts, run by version-packages)", () => {
  it("finds significance's, equal to its package.json now (the scoring engine reads its package.json: no constant)", () => {
    const found = versionFiles().map((v) => ({ file: path.relative(path.resolve(import.meta.dirname, "../../.."), v.file), same: v.found === v.version }))
    expect(found).toEqual([{ file: "packages/significance/src/Signature.ts", same: true }])
  })

  it("sets each to its package's version after a bump, and nothing else", () => {
    const repo = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-versions-"))
    try {
      for (const [dir, version, source] of [
        ["packages/a", "0.3.0", 'export const ENGINE = "a"\nexport const VERSION = "0.2.0"\nconst x = "VERSION"\n'],
        ["packages/b", "1.0.0", "export const other = 1\n"],
        ["apps/c", "0.2.0", 'export const VERSION = "0.2.0"\n']
      ] as const) {
        fs.mkdirSync(path.join(repo, dir, "src/internal"), { recursive: true })
        fs.writeFileSync(path.join(repo, dir, "package.json"), JSON.stringify({ version }))
        fs.writeFileSync(path.join(repo, dir, "src/internal/Version.ts"), source)
      }
      expect(sync(repo)).toEqual([path.join("packages/a/src/internal/Version.ts")])
      expect(fs.readFileSync(path.join(repo, "packages/a/src/internal/Version.ts"), "utf8")).toBe('export const ENGINE = "a"\nexport const VERSION = "0.3.0"\nconst x = "VERSION"\n')
      expect(sync(repo)).toEqual([])
    } finally {
      fs.rmSync(repo, { recursive: true, force: true })
    }
  })
})
