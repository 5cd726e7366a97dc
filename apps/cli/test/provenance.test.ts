/**
 * Issue 32: an edition's provenance through the command line. `tasks` lists each edition's paper,
 * the data's licence and revision (text and --json) and describes one edition given by id or file
 * (`extends` resolved); `report` puts the paper under every table, and LaTeX written to a file
 * cites it from a .bib written beside.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { examples, runCli } from "./support/cli.js"

const tmp = scratchDir("provenance")
const sick = ["--task", "sick2014", "--gold", path.join(examples, "sick2014/SICK_test_annotated.txt"), path.join(examples, "sick2014/submissions")]

describe("stseval tasks", () => {
  it("lists where each edition comes from: the paper to cite, the reference, the licence, the data's revision", async () => {
    const r = await runCli(["tasks"])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain("\nSources\nsick2014:\n  cite: Marelli et al. (2014), SemEval-2014 Task 1: Evaluation of Compositional Distributional Semantic Models")
    expect(r.stdout).toContain("  licence: CC BY-NC-SA 3.0\n  data revision: brmson/dataset-sts@e1d3375 (gold), igorbrigadir/SemEval2014-Task1@09ad831 (input)")
    expect(r.stdout).toContain("semrel2024-c:\n  cite: Ousidhoum et al. (2024), SemEval-2024 Task 1: Semantic Textual Relatedness for African and Asian Languages [ousidhoum-etal-2024-semeval]")
    const json = JSON.parse((await runCli(["tasks", "--json"])).stdout) as Array<{ id: string; citation?: string; reference?: string }>
    expect(json.find((e) => e.id === "sts2017")).toMatchObject({ reference: "https://aclanthology.org/S17-2001/" })
    expect(json.find((e) => e.id === "sts2017")?.citation).toMatch(/^@inproceedings\{cer-etal-2017-semeval,/)
  })

  it("describes one edition, a file extending a built-in one included", async () => {
    const file = path.join(tmp, "sts2015-mine.yaml")
    fs.writeFileSync(file, "extends: sts2015\nid: sts2015-mine\nrunLimit: 5\n")
    const r = await runCli(["tasks", file])
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/sts2015-mine +SemEval-2015 Task 2/)
    expect(r.stdout).toContain("cite: Agirre et al. (2015)")
    const json = JSON.parse((await runCli(["tasks", file, "--json"])).stdout) as { id: string; runLimit: number; datasets: Array<unknown> }
    expect(json).toMatchObject({ id: "sts2015-mine", runLimit: 5 })
    expect(json.datasets).toHaveLength(5)
    const bad = await runCli(["tasks", "sts2099"])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('no built-in edition "sts2099"')
  })
})

describe("stseval report names the task's paper", () => {
  it("a line under each Markdown table", async () => {
    const r = await runCli(["report", ...sick])
    expect(r.code).toBe(0)
    expect(r.stdout.match(/^Source: Marelli et al\. \(2014\), SemEval-2014 Task 1: .*\.$/gm)).toHaveLength(2)
  })

  it("LaTeX written to a file: \\cite under each table and the entry in a .bib of the same name beside it", async () => {
    const out = path.join(tmp, "sick.tex")
    const r = await runCli(["report", ...sick, "--format", "latex", "--standalone", "--out", out])
    expect(r.code).toBe(0)
    expect(r.stderr).toContain(`wrote ${path.join(tmp, "sick.bib")}`)
    const tex = fs.readFileSync(out, "utf8")
    expect(tex.match(/\\cite\{marelli-etal-2014-semeval\}/g)).toHaveLength(2)
    expect(tex).toContain("\\bibliography{sick}")
    const bib = fs.readFileSync(path.join(tmp, "sick.bib"), "utf8")
    expect(bib).toMatch(/^@inproceedings\{marelli-etal-2014-semeval,\n/)
    expect(bib).toContain("pages = {1--8}")
  })
})
