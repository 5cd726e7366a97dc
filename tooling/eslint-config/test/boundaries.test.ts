import * as path from "node:path"
import { Linter } from "eslint"
import tseslint from "typescript-eslint"
import { describe, expect, it } from "vitest"
import boundaries from "../boundaries.js"
import config from "../index.js"

// A made-up root: the rule places files and imports by their paths under it, nothing is read.
const root = path.resolve("/repo")
const linter = new Linter({ cwd: root })
const ruleOnly: Array<Linter.Config> = [
  { files: ["**/*.ts"], languageOptions: { parser: tseslint.parser, sourceType: "module" }, plugins: { stseval: boundaries }, rules: { "stseval/boundaries": "error" } }
]

/** The boundary messages for `code` written in `file` (a path from the root). */
const problems = (file: string, code: string, configs: ReadonlyArray<Linter.Config> = ruleOnly) =>
  linter.verify(code, [...configs], { filename: path.join(root, file) }).filter((m) => m.ruleId === "stseval/boundaries" || m.fatal === true)

describe("the import boundaries (stseval/boundaries, docs/architecture.md)", () => {
  it("a package never imports an app: by name, by subpath, by a relative path that climbs into apps/, or dynamically", () => {
    const cases = [
      'import { main } from "@stseval/cli"',
      'export * from "@stseval/watcher"',
      'import type { X } from "@stseval/report/Config"',
      'import { builtCli } from "../../../apps/cli/test/support/built.js"',
      'const m = await import("@stseval/cli")'
    ]
    for (const code of cases) {
      const found = problems("packages/scoring/src/Engine.ts", code)
      expect(found, code).toHaveLength(1)
      expect(found[0].message, code).toContain("a package never imports an app")
    }
    // a test of a package too
    expect(problems("packages/codabench/test/support/worker.ts", 'import { builtCli } from "../../../../apps/cli/test/support/built.js"')).toHaveLength(1)
  })

  it("an app never imports another app", () => {
    const found = problems("apps/watcher/src/Main.ts", 'import { x } from "../../cli/src/Main.js"')
    expect(found).toHaveLength(1)
    expect(found[0].message).toBe(
      "apps/watcher must not import ../../cli/src/Main.js (apps/cli): an app never imports another app (what apps share lives in tooling/ or a package)."
    )
    expect(problems("apps/report/src/Main.ts", 'import * as Cli from "@stseval/cli"')).toHaveLength(1)
  })

  it("each package reads only the packages of its row: metrics nothing, formats metrics, significance metrics, scoring not tables", () => {
    const forbiddenEdges: ReadonlyArray<readonly [string, string]> = [
      ["packages/metrics/src/Pearson.ts", "@stseval/formats"],
      ["packages/formats/src/Registry.ts", "@stseval/scoring"],
      ["packages/formats/src/Registry.ts", "@stseval/significance"],
      ["packages/significance/src/Compare.ts", "@stseval/formats"],
      ["packages/baselines/src/Run.ts", "@stseval/scoring"],
      ["packages/scoring/src/Engine.ts", "@stseval/tables"],
      ["packages/scoring/src/Engine.ts", "@stseval/leaderboard"],
      ["packages/tables/src/Report.ts", "@stseval/leaderboard"],
      ["packages/leaderboard/src/Watcher.ts", "@stseval/codabench"],
      ["packages/codabench/src/Score.ts", "@stseval/leaderboard"],
      ["packages/scoring/src/Engine.ts", "@stseval/app"],
      ["tooling/bundle/src/bundle.ts", "@stseval/scoring"],
      ["apps/watcher/src/Main.ts", "@stseval/tables"]
    ]
    for (const [file, specifier] of forbiddenEdges) {
      const found = problems(file, `import * as X from "${specifier}"`)
      expect(found, `${file} -> ${specifier}`).toHaveLength(1)
      expect(found[0].message, `${file} -> ${specifier}`).toContain("docs/architecture.md")
    }
    // a relative path into a sibling package is the same edge
    expect(problems("packages/formats/src/Registry.ts", 'import { x } from "../../scoring/src/Engine.js"')).toHaveLength(1)
  })

  it("allows the edges the table draws, a folder's own files, other libraries, and test tooling in tests only", () => {
    const allowed: ReadonlyArray<readonly [string, string]> = [
      ["packages/formats/src/Registry.ts", "@stseval/metrics"],
      ["packages/scoring/src/Engine.ts", "@stseval/significance"],
      ["packages/scoring/src/Marks.ts", "@stseval/scoring/Isolation"],
      ["packages/tables/src/Report.ts", "@stseval/scoring/Marks"],
      ["packages/leaderboard/src/Watcher.ts", "@stseval/tables"],
      ["apps/cli/src/Main.ts", "@stseval/codabench"],
      ["apps/cli/src/Main.ts", "@stseval/app"],
      ["apps/watcher/src/Main.ts", "@stseval/leaderboard"],
      ["packages/scoring/src/Engine.ts", "effect"],
      ["packages/scoring/src/Engine.ts", "./internal/edition.js"],
      ["packages/scoring/test/Engine.test.ts", "../src/Engine.js"],
      ["packages/scoring/test/Engine.test.ts", "@stseval/vitest-config/reference"],
      ["tooling/release/src/main.ts", "@stseval/scoring"]
    ]
    for (const [file, specifier] of allowed) expect(problems(file, `import * as X from "${specifier}"`), `${file} -> ${specifier}`).toEqual([])
    expect(problems("packages/scoring/src/Engine.ts", 'import * as R from "@stseval/vitest-config/reference"')[0].message).toContain("test tooling")
  })

  it("is on in the shared config, for the JavaScript files as for the TypeScript", () => {
    const found = problems("packages/formats/src/helper.js", 'import { main } from "@stseval/cli"\nexport const x = main\n', config)
    expect(found.map((m) => m.message)).toEqual(["packages/formats must not import @stseval/cli (apps/cli): a package never imports an app."])
    // and the JavaScript gets the syntax rules, without the type-aware ones (no TypeScript program holds it)
    const js = linter.verify("export const f = () => { if (x) {} }\n", [...config], { filename: path.join(root, "tooling/vitest-config/a.js") })
    expect(js.map((m) => m.ruleId).sort()).toEqual(["no-empty", "no-undef"])
  })
})
