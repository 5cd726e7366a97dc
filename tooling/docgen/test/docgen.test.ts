/**
 * The API reference: every `@example` of the library packages type-checks, docs/api/ is what the
 * sources' doc comments give (as docs/schemas is what the Schemas give), every exported function
 * and class (the callable API) has an example and every other export (type, interface, constant)
 * a description, with no exceptions: an export without it fails here by name.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import * as Docgen from "../src/docgen.js"

let modules: ReadonlyArray<Docgen.Module>
let check: Docgen.ExampleCheck

beforeAll(() => {
  modules = Docgen.reference()
  check = Docgen.checkExamples(modules)
}, 180_000)

describe("the API reference (tooling/docgen)", () => {
  it("reads every module the packages' indexes re-export, with its exports", () => {
    const metrics = modules.find((m) => m.package === "@stseval/metrics" && m.name === "Pearson")
    expect(metrics?.exports.map((e) => e.name)).toContain("pearson")
    expect(modules.filter((m) => m.package === "@stseval/formats").map((m) => m.name)).toContain("Registry")
    expect(check.checked).toBeGreaterThan(0)
  })

  it("every @example type-checks", () => {
    const report = check.errors.map((e) => `${e.export} (${e.file}):\n    ${e.messages.join("\n    ")}`)
    expect(report, `@example blocks that do not type-check:\n  ${report.join("\n  ")}`).toEqual([])
  })

  it("an example is asked of functions and classes; a type, interface or constant needs a description instead", () => {
    const entry = (name: string, kind: Docgen.Export["kind"], description: string, examples: ReadonlyArray<string> = []): Docgen.Export => ({
      package: "@stseval/toy",
      module: "Toy",
      name,
      kind,
      description,
      since: "0.1.0",
      examples,
      signature: "",
      file: "packages/toy/src/Toy.ts",
      line: 1
    })
    const toy: Docgen.Module = {
      package: "@stseval/toy",
      name: "Toy",
      description: "a toy module",
      file: "packages/toy/src/Toy.ts",
      exports: [
        entry("described", "constant", "the column's name"),
        entry("Shape", "interface", "what a pair holds"),
        entry("Alias", "type", ""),
        entry("bare", "constant", ""),
        entry("score", "function", "scores a run"),
        entry("Reader", "class", "reads a file"),
        entry("shown", "function", "", ["export const x = 1"]),
        { ...entry("read", "constant", "reads a file"), signature: "export declare const read: (file: string) => string" }
      ]
    }
    const result = Docgen.checkExamples([toy])
    expect(result.missing.map((m) => m.replace(/ \(.*\)$/, ""))).toEqual(["@stseval/toy Toy.Alias", "@stseval/toy Toy.bare", "@stseval/toy Toy.score", "@stseval/toy Toy.Reader", "@stseval/toy Toy.read"])
  })

  it("every function and class has an example and every other export a description", () => {
    const missing = check.missing
    expect(
      missing,
      `${missing.length} exports lack what they need: a function or class an @example (a doc comment's @example block, type-checked here; see packages/metrics/src/Pearson.ts), any other export a description:\n  ${missing.join("\n  ")}`
    ).toEqual([])
  })

  it("docs/api is current (`pnpm docs:api` writes it)", () => {
    const dir = path.join(Docgen.repoRoot, "docs/api")
    const files = Docgen.markdown(modules)
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".md")).sort()).toEqual([...files.keys()].sort())
    for (const [name, text] of files) expect(fs.readFileSync(path.join(dir, name), "utf8"), `docs/api/${name} is stale: run pnpm docs:api`).toBe(text)
  })
})
