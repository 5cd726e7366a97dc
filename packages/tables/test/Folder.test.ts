import { describe, expect, it } from "vitest"
import * as Folder from "../src/Folder.js"
import * as Presets from "../src/Presets.js"
import type * as Table from "../src/Table.js"
import { hostileResults } from "./fixtures.js"

// An STS 2017 table of runs with hostile team names, its p-value matrix and plots drawn (as for HTML)
const table = (): Table.Table => Presets.preset("sts2017-table10", hostileResults(), { matrix: true })

describe("a report as a folder (Folder.files, Folder.indexPage)", () => {
  it("one file per table and format, named by the table's id, then index.html; each text ends with one newline", () => {
    const t = table()
    const second: Table.Table = { ...t, id: "second", title: "Second" }
    const files = Folder.files("sts2017", [t, second], { formats: ["md", "html"] })
    expect(files.map((f) => f.name)).toEqual(["sts2017-table10.md", "sts2017-table10.html", "second.md", "second.html", "index.html"])
    for (const f of files) expect(f.text.endsWith("\n") && !f.text.endsWith("\n\n"), f.name).toBe(true)
    // every format by default, LaTeX as .tex
    expect(Folder.files("sts2017", [t]).map((f) => f.name)).toEqual(["sts2017-table10.md", "sts2017-table10.tex", "sts2017-table10.html", "index.html"])
    // a Markdown file is a table of pipes, a LaTeX file a float, an HTML file a whole page
    const [md, tex, html] = Folder.files("sts2017", [t])
    expect(md.text).toMatch(/^\|.*\|$/m)
    expect(tex.text).toContain("\\begin{table")
    expect(html.text.startsWith("<!DOCTYPE html>")).toBe(true)
  })

  it("the index links each table's files in the formats written, and only those", () => {
    const index = Folder.indexPage("sts2017", [table()], { formats: ["md", "html"] })
    expect(index).toContain('<a href="sts2017-table10.md">Markdown</a> · <a href="sts2017-table10.html">HTML</a>')
    expect(index).not.toContain(".tex")
    expect(index).toContain('<li><a href="#sts2017-table10">')
  })

  it("the index's preview is the table alone: the plots and the p-value matrix stay on the table's own page", () => {
    const t = table()
    expect(t.scatter?.length ?? 0).toBeGreaterThan(0)
    expect(t.pValues?.length ?? 0).toBeGreaterThan(0)
    const page = Folder.files("sts2017", [t], { formats: ["html"] })[0].text
    const index = Folder.indexPage("sts2017", [t])
    expect(page).toContain("<svg")
    expect(index).not.toContain("<svg")
    // the table's rows are there, the names escaped
    expect(index).toContain("&lt;script&gt;alert(1)&lt;/script&gt;")
    expect(index).not.toContain("<script>alert(1)</script>")
  })

  it("title and signature: the edition by default, escaped when given; the signature only when given", () => {
    const t = table()
    expect(Folder.indexPage("sts2017", [t])).toContain("<title>sts2017: results tables</title>")
    expect(Folder.indexPage("sts2017", [t])).not.toContain("Scored with")
    const index = Folder.indexPage("sts2017", [t], { title: "STS <2017> & co", signature: "sts2017@1a2b|gold:<x>" })
    expect(index).toContain("<h1>STS &lt;2017&gt; &amp; co: results tables</h1>")
    expect(index).toContain('<p class="notes">Scored with <code>sts2017@1a2b|gold:&lt;x&gt;</code>.</p>')
  })
})
