import { describe, expect, it } from "vitest"
import * as Tarball from "../src/Tarball.js"

const manifest = {
  name: "@stseval/x",
  version: "0.2.0",
  license: "MIT",
  repository: { type: "git", url: "git+https://github.com/stseval/stseval.git", directory: "packages/x" },
  homepage: "https://github.com/stseval/stseval/tree/main/packages/x#readme",
  bugs: { url: "https://github.com/stseval/stseval/issues" },
  keywords: ["sts"],
  engines: { node: ">=22" },
  exports: { ".": { "@stseval/source": "./src/index.ts", types: "./dist/index.d.ts", default: "./dist/index.js" } }
}

const good = (): Map<string, string> =>
  new Map([
    ["package/package.json", JSON.stringify(manifest)],
    ["package/README.md", "# x"],
    ["package/LICENSE", "MIT License"],
    ["package/src/index.ts", "export const a = 1"],
    ["package/dist/index.js", "export const a = 1\n//# sourceMappingURL=index.js.map"],
    ["package/dist/index.js.map", JSON.stringify({ version: 3, sources: ["../src/index.ts"], mappings: "" })],
    ["package/dist/index.d.ts", "export declare const a = 1\n//# sourceMappingURL=index.d.ts.map"],
    ["package/dist/index.d.ts.map", JSON.stringify({ version: 3, sources: ["../src/index.ts"], mappings: "" })]
  ])

describe("Tarball.problems", () => {
  it("finds nothing wrong in a package that holds what a consumer needs", () => {
    expect(Tarball.problems(good())).toEqual([])
  })

  it("finds source maps whose sources are missing, and a sourceMappingURL to a missing map", () => {
    const files = good()
    files.delete("package/src/index.ts")
    files.delete("package/dist/index.d.ts.map")
    expect(Tarball.problems(files)).toEqual([
      "exports points at ./src/index.ts, which is not in the tarball",
      "dist/index.js.map: its source ../src/index.ts is not in the tarball",
      "dist/index.d.ts: its sourceMappingURL index.d.ts.map is not in the tarball"
    ])
  })

  it("finds tests, fixtures, benchmarks, build state and development configs", () => {
    const files = good()
    for (const f of ["test/a.test.ts", "src/fixtures/gold.txt", "bench/x.bench.ts", "dist/.tsbuildinfo", "tsconfig.build.json", "src/a.spec.ts"]) files.set(`package/${f}`, "")
    expect(Tarball.problems(files)).toEqual([
      "test/a.test.ts: a test, fixture or benchmark folder",
      "test/a.test.ts: a test or benchmark file",
      "src/fixtures/gold.txt: a test, fixture or benchmark folder",
      "bench/x.bench.ts: a test, fixture or benchmark folder",
      "bench/x.bench.ts: a test or benchmark file",
      "dist/.tsbuildinfo: build state or a temp file",
      "tsconfig.build.json: a development config",
      "src/a.spec.ts: a test or benchmark file"
    ])
  })

  it("finds missing metadata, a workspace: version, and a missing LICENSE or README", () => {
    const files = good()
    files.delete("package/LICENSE")
    const { repository: _r, homepage: _h, ...rest } = manifest
    files.set("package/package.json", JSON.stringify({ ...rest, license: "ISC", dependencies: { "@stseval/metrics": "workspace:*" } }))
    expect(Tarball.problems(files)).toEqual([
      "no LICENSE",
      "package.json names a workspace: version",
      "license is ISC, not MIT",
      "repository has no url or directory",
      "no homepage"
    ])
  })
})
