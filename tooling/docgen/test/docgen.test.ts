/**
 * The API reference: every `@example` of the library packages type-checks, docs/api/ is what the
 * sources' doc comments give (as docs/schemas is what the Schemas give), and every exported
 * function, constant, type and class has an example, save the ones still listed in
 * missing-examples.txt, a list that may only shrink: an export that gains an example, or leaves,
 * must leave the list too, and a new export without an example fails here by name.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import * as Docgen from "../src/docgen.js"

const listFile = path.resolve(import.meta.dirname, "../missing-examples.txt")
/** The entries of missing-examples.txt: `@stseval/<package> <Module>.<export>`, one a line. */
const listed = (): ReadonlySet<string> =>
  new Set(
    fs
      .readFileSync(listFile, "utf8")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "" && !l.startsWith("#"))
  )

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

  it("every export has an example, save those still listed in missing-examples.txt", () => {
    const list = listed()
    const id = (entry: string) => entry.replace(/ \(.*\)$/, "")
    const unlisted = check.missing.filter((m) => !list.has(id(m)))
    expect(
      unlisted,
      `${unlisted.length} exports have no @example (a doc comment's @example block, type-checked here; see packages/metrics/src/Pearson.ts):\n  ${unlisted.join("\n  ")}`
    ).toEqual([])
    const missingIds = new Set(check.missing.map(id))
    const stale = [...list].filter((l) => !missingIds.has(l))
    expect(stale, `missing-examples.txt lists exports that now have an example or are gone; remove these lines:\n  ${stale.join("\n  ")}`).toEqual([])
  })

  it("docs/api is current (`pnpm docs:api` writes it)", () => {
    const dir = path.join(Docgen.repoRoot, "docs/api")
    const files = Docgen.markdown(modules)
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".md")).sort()).toEqual([...files.keys()].sort())
    for (const [name, text] of files) expect(fs.readFileSync(path.join(dir, name), "utf8"), `docs/api/${name} is stale: run pnpm docs:api`).toBe(text)
  })
})
