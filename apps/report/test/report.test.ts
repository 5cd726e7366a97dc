/**
 * The report generator: a config becomes a folder of one file per table and format plus
 * index.html, in process (`generate`) and as the one-file executable run with nothing but `node`.
 * Figures are checked against the official R scorer's output on the same runs
 * (../shared/reference/sick-posttask-runs.official-R.tsv: The Meaning Factory r 0.826381603887488,
 * accuracy 79.6427846559773%).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { runProcess } from "@stseval/vitest-config/process"
import { scratchDir } from "@stseval/vitest-config/temp"
import { Effect, Exit } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import * as ReportConfig from "../src/ReportConfig.js"
import { generate } from "../src/Main.js"
import * as Bundle from "@stseval/bundle"
import { cacheRejected, expectScorerBody, scorerCache } from "@stseval/vitest-config/bodies"
import { bundle } from "../scripts/bundle.js"

const repoRoot = path.resolve(import.meta.dirname, "../../..")
const examples = path.join(repoRoot, "examples/sick2014")

const work = scratchDir("report-test")
let exe: string

beforeAll(async () => {
  // the executable alone in an empty folder: no node_modules beside or above it
  fs.mkdirSync(path.join(work, "alone"))
  exe = (await bundle({ outfile: path.join(work, "alone", "stseval-report.mjs") })).outfile
}, 90_000)

/** A config file in a fresh folder; paths in it are relative to that folder. */
const configIn = (name: string, text: string): string => {
  const dir = path.join(work, name)
  fs.mkdirSync(dir, { recursive: true })
  fs.symlinkSync(examples, path.join(dir, "sick2014"))
  const file = path.join(dir, name.endsWith("json") ? "report.json" : "report.yaml")
  fs.writeFileSync(file, text)
  return file
}

const run = <A, E>(effect: Effect.Effect<A, E, NodeServices.NodeServices>) => Effect.runPromiseExit(effect.pipe(Effect.provide(NodeServices.layer)))

describe("generate", () => {
  it("writes each table in Markdown, LaTeX and HTML, and an index page linking every file", async () => {
    const file = configIn("all", "task: sick2014\ngold: sick2014/SICK_test_annotated.txt\nsubmissions: sick2014/submissions\nout: tables\n")
    const exit = await run(generate(file))
    expect(Exit.isSuccess(exit)).toBe(true)
    if (!Exit.isSuccess(exit)) return
    const w = exit.value
    const out = path.join(path.dirname(file), "tables")
    expect(w.out).toBe(out)
    expect(w.tables).toEqual(["sick2014-table7", "sick2014-table6"])
    const expected = ["sick2014-table7", "sick2014-table6"].flatMap((t) => [`${t}.md`, `${t}.tex`, `${t}.html`])
    // the task's paper, which every .tex cites, in a .bib beside them
    expect(w.files).toEqual([...expected, "references.bib", "index.html"])
    expect(fs.readdirSync(out).sort()).toEqual([...expected, "references.bib", "index.html"].sort())
    expect(fs.readFileSync(path.join(out, "references.bib"), "utf8")).toMatch(/^@inproceedings\{marelli-etal-2014-semeval,/)
    // the two runs the shipped example holds broken are named, the others scored
    expect(w.failed.map((f) => f.split(" ")[0])).toEqual(["Insight/run2", "MeaningFactory/run2"])

    const md7 = fs.readFileSync(path.join(out, "sick2014-table7.md"), "utf8")
    expect(md7).toMatch(/\| MeaningFactory\/run1 +\| \*\*0\.826\*\* •/)
    const md6 = fs.readFileSync(path.join(out, "sick2014-table6.md"), "utf8")
    expect(md6).toMatch(/MeaningFactory\/run1 +\| +79\.643 • \| +1 \|/)
    const tex = fs.readFileSync(path.join(out, "sick2014-table7.tex"), "utf8")
    expect(tex).toContain("\\begin{table}")
    expect(tex).toContain("\\toprule")
    expect(tex).not.toContain("\\documentclass")
    expect(tex).toContain("Source: \\cite{marelli-etal-2014-semeval}")
    const html = fs.readFileSync(path.join(out, "sick2014-table7.html"), "utf8")
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true)
    expect(html).toContain("<svg") // the scatter plots: only the HTML files carry them

    const index = fs.readFileSync(path.join(out, "index.html"), "utf8")
    const links = [...index.matchAll(/href="([^"#]+)"/g)].map((m) => m[1])
    expect(links.sort()).toEqual([...expected].sort())
    expect(index).toContain("stseval-scoring@")
    expect(index).toContain("0.826")
  })

  it("keeps the report options: formats, decimals, standalone LaTeX, and --out over the config's out", async () => {
    const file = configIn(
      "options",
      "task: sick2014\ngold: sick2014/SICK_test_annotated.txt\nsubmissions: sick2014/submissions\nformats: [latex]\nlayout: sick2014-table7\ndecimals: 2\nlatex: { standalone: true }\n"
    )
    const out = path.join(work, "options-out")
    const exit = await run(generate(file, { out }))
    expect(Exit.isSuccess(exit)).toBe(true)
    expect(fs.readdirSync(out).sort()).toEqual(["index.html", "references.bib", "sick2014-table7.tex"])
    const tex = fs.readFileSync(path.join(out, "sick2014-table7.tex"), "utf8")
    expect(tex).toContain("\\documentclass")
    expect(tex).toContain("\\bibliography{references}")
    expect(tex).toMatch(/MeaningFactory\/run1 & \\textbf\{0\.83\}/)
  })

  it("a config that cannot be used names the file and each key, and nothing is written", async () => {
    const file = configIn("bad", "task: sick2014\nsubmissions: 3\nformats: [pdf]\ndecimals: many\ncolour: red\n")
    const parsed = ReportConfig.parse(fs.readFileSync(file, "utf8"), file)
    expect(parsed._tag).toBe("Error")
    const errors = parsed._tag === "Error" ? parsed.errors.join("\n") : ""
    expect(errors).toContain(`${file}: submissions: Expected string, found 3`)
    expect(errors).toContain(`${file}: formats.0: Expected "md" | "latex" | "html", found "pdf"`)
    expect(errors).toContain(`${file}: decimals: expected an integer 0-10`)
    expect(errors).toContain(`${file}: colour: expected one of the keys task, submissions, gold, dataRoot, dev, devGold, out, formats, layout,`)
    const exit = await run(generate(file))
    expect(Exit.isFailure(exit)).toBe(true)
    expect(fs.existsSync(path.join(path.dirname(file), "report"))).toBe(false)
  })
})

describe("the executable (one file, only node)", () => {
  const node = (args: ReadonlyArray<string>, cwd: string) =>
    runProcess(process.execPath, [exe, ...args], { cwd, env: { PATH: path.dirname(process.execPath), TMPDIR: work, NO_COLOR: "1" } })

  it("writes the same folder as the library does, and exits 1 naming the runs it could not score", async () => {
    const file = configIn("exe", "task: sick2014\ngold: sick2014/SICK_test_annotated.txt\nsubmissions: sick2014/submissions\nout: tables\n")
    const r = await node([path.basename(file)], path.dirname(file))
    expect(r.stdout).toContain("2 table(s) (sick2014-table7, sick2014-table6) as 7 file(s) and index.html; 5 run(s)")
    expect(r.stderr).toContain("not scored: Insight/run2")
    expect(r.code).toBe(1)
    const reference = path.join(work, "all", "tables")
    const out = path.join(path.dirname(file), "tables")
    for (const name of fs.readdirSync(out)) expect(fs.readFileSync(path.join(out, name), "utf8"), name).toBe(fs.readFileSync(path.join(reference, name), "utf8"))
  })

  it("a usage problem is one line on stderr and exit 2; --version prints the package's", async () => {
    const file = configIn("exe-bad", "task: sick2015\nsubmissions: sick2014/submissions\n")
    const r = await node([file], work)
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^error: .*sick2015/)
    const v = await node(["--version"], work)
    const { version } = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8")) as { version: string }
    expect(v.stdout.trim()).toBe(`stseval-report v${version}`)
  })

  it("its scorer threads run the scorer-only body the file also carries (none of the report), and score as the library does", async () => {
    // the two bodies, as the loader reads them back; none of the report: its tables' renderers are not in it
    // (0.78 MB beside 1.29 MB: reading and checking runs, and Effect, are much of the report too)
    const { worker: scorerBody, program: programBody } = expectScorerBody(Bundle.bodies(fs.readFileSync(exe, "utf8")), { programOnly: "\\toprule", under: 0.65 })
    // 20 runs: more than the engine scores on its own thread, so they go to scorers (in batches)
    const file = configIn("scorers", "task: sick2014\ngold: sick2014/SICK_test_annotated.txt\nsubmissions: twenty\nout: tables\n")
    const dir = path.dirname(file)
    fs.mkdirSync(path.join(dir, "twenty"))
    for (let i = 1; i <= 20; i++) fs.copyFileSync(path.join(examples, "submissions/MeaningFactory_run1primary.txt"), path.join(dir, "twenty", `Team${String(i).padStart(2, "0")}_run1primary.txt`))
    const tmp = path.join(work, "tmp-scorers")
    fs.mkdirSync(tmp)
    const r = await runProcess(process.execPath, [exe, path.basename(file)], { cwd: dir, env: { PATH: path.dirname(process.execPath), TMPDIR: tmp, NO_COLOR: "1" } })
    expect(r.code, r.stderr).toBe(0)
    const md7 = fs.readFileSync(path.join(dir, "tables", "sick2014-table7.md"), "utf8")
    expect(md7.match(/\| Team\d\d\/run1 +\| [*]*0\.826/g)?.length).toBe(20) // official R: r 0.826381603887488
    // the same files as the library writes in process
    const exit = await run(generate(file))
    expect(Exit.isSuccess(exit)).toBe(true)
    // (written over the executable's: compared with what it wrote)
    expect(fs.readFileSync(path.join(dir, "tables", "sick2014-table7.md"), "utf8")).toBe(md7)
    // the scorers' code cache is V8's for the scorer body, not for the program (V8 rejects a cache
    // made from another source)
    expect(cacheRejected({ program: programBody, worker: scorerBody }, scorerCache(tmp))).toEqual({ worker: false, program: true })
  }, 60_000)
})
