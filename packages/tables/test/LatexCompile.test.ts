/**
 * The LaTeX output compiles with pdflatex and renders to a non-blank page. Skipped (with a
 * warning) when pdflatex / pdftotext / pdftoppm are not installed; CI installs them with
 * `apt-get install -y --no-install-recommends texlive-latex-base texlive-latex-recommended
 * texlive-fonts-recommended poppler-utils`.
 */
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { Latex, Presets } from "../src/index.js"
import { hostileResults } from "./fixtures.js"

const has = (cmd: string) => spawnSync("sh", ["-c", `command -v ${cmd}`]).status === 0
const tools = ["pdflatex", "pdftotext", "pdftoppm"].filter((c) => !has(c))
if (tools.length > 0) console.warn(`report: LaTeX compile test skipped: ${tools.join(", ")} not installed`)

const compile = (tex: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-latex-"))
  fs.writeFileSync(path.join(dir, "table.tex"), tex)
  const run = spawnSync("pdflatex", ["-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", "table.tex"], { cwd: dir, encoding: "utf8", timeout: 60_000 })
  return { dir, status: run.status, log: run.stdout }
}

describe.skipIf(tools.length > 0)("LaTeX compiles with pdflatex", () => {
  it("the hostile-names table compiles alone and its PDF shows every name", { timeout: 120_000 }, () => {
    const table = Presets.preset("sts2017-table10", hostileResults(), { matrix: false })
    const { dir, status, log } = compile(Latex.render(table, { standalone: true }))
    expect(status, log.split("\n").filter((l) => l.startsWith("!")).join("\n")).toBe(0)
    const pdf = path.join(dir, "table.pdf")
    const text = execFileSync("pdftotext", ["-layout", pdf, "-"], { encoding: "utf8" })
    for (const name of [
      "BestTeam/run1",
      "a_b & c % d # e $ f { g } h ~ i ^ j \\ k/run1",
      "<script>alert(1)</script>/run1*",
      "pipe|team || x/run1\u2020",
      "**bold** [link](http://example.org) `code`/run1",
      "Ünïcödé-Team_ß/run1",
      "U+05E6U+05D5U+05D5U+05EA"
    ]) {
      expect(text).toContain(name)
    }
    // a 300-character name is shortened with an ellipsis (\dots prints ". . .")
    expect(text).toMatch(new RegExp(`(^|\\s)N{59}\\. \\. \\.`))
    // each bold footnote names its columns and its rule (issue 35)
    expect(text).toMatch(/Bold in ar-ar, en-en: not significantly different from the best ranked run \(Williams[’'] t, Holm-adjusted, p > 0\.05\)\./)
    expect(text).toMatch(/Bold in Primary: not significantly different from the best ranked run \(paired bootstrap[^)]*\), 1,000 resamples \(seed 12345\), p by the normal approximation, Holm-adjusted, p > 0\.05\)\./)
    expect(text).toContain("* late or corrected submission.")
    expect(text).toMatch(/80\.00\s*•/)
    // render to PNG at 50 dpi: not blank (some dark pixels: the PNG's bytes vary)
    execFileSync("pdftoppm", ["-png", "-r", "50", "-f", "1", "-l", "1", pdf, path.join(dir, "page")])
    const png = fs.readFileSync(fs.readdirSync(dir).filter((f) => f.endsWith(".png")).map((f) => path.join(dir, f))[0])
    expect(png.subarray(1, 4).toString()).toBe("PNG")
    expect(png.length).toBeGreaterThan(3000)
    expect(new Set(png.subarray(100)).size).toBeGreaterThan(100)
    fs.rmSync(dir, { recursive: true, force: true })
  })

  it("a non-standalone fragment compiles inside a minimal document without T1 fonts", { timeout: 120_000 }, () => {
    const table = Presets.preset("sts2017-table10", hostileResults(), { matrix: false, significance: false })
    const doc = ["\\documentclass{article}", "\\usepackage{booktabs}", "\\begin{document}", Latex.render(table), "\\end{document}"].join("\n")
    const { status, log, dir } = compile(doc)
    expect(status, log.split("\n").filter((l) => l.startsWith("!")).join("\n")).toBe(0)
    fs.rmSync(dir, { recursive: true, force: true })
  })
})
