/**
 * The "tied with the best" marks, decided once (`@stseval/scoring/Marks`), as `report` prints them:
 * the Primary column of STS 2017 gets them like every track (issue 24: `compare` gave p = 0.146 for
 * the top two primary figures, yet neither was bold), by the stratified bootstrap `compare` uses
 * for the aggregate; and the bullet goes to the best RANKED run.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { hasShared, runCli, shared } from "./support/cli.js"

const tmp = scratchDir("cli-marks")

if (!hasShared) console.warn("apps/cli marks.test.ts: ../shared is absent; the STS 2017 marks tests are skipped")

describe.skipIf(!hasShared)("STS 2017 report: the Primary column gets the tied-with-best marks", () => {
  const folder = path.join(tmp, "subs")
  const source = path.join(shared, "data/runs/sts-synthetic/sts2017")
  const gold = path.join(shared, "data/sts2017/gold")
  const numbers = (file: string) => fs.readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map(Number)
  // Alpha: the shared synthetic run; Beta: the same with a little deterministic noise (a close
  // Primary); Gamma: much noise (far below); Late: halfway between Alpha and the gold (above
  // Alpha on every track), after the deadline
  const write = (name: string, noise: number, phase: number, towardGold = 0, meta?: object) => {
    const dir = path.join(folder, name)
    fs.mkdirSync(dir, { recursive: true })
    for (const file of hasShared ? fs.readdirSync(source) : []) {
      const g = numbers(path.join(gold, file.replace("STS.output.", "STS.gs.")))
      const xs = numbers(path.join(source, file)).map((x, i) => (1 - towardGold) * x + towardGold * g[i])
      fs.writeFileSync(path.join(dir, file), xs.map((x, i) => `${Math.round((x + noise * Math.sin(i * phase + file.length)) * 10000) / 10000}\n`).join(""))
    }
    if (meta !== undefined) fs.writeFileSync(path.join(dir, "run.json"), JSON.stringify(meta))
  }
  write("Alpha_run1primary", 0, 1)
  write("Beta_run1primary", 0.12, 12.9898)
  write("Gamma_run1primary", 2.5, 78.233)
  write("Late_run1primary", 0, 1, 0.5, { team: "Late", run: 1, primary: true, postDeadline: true })

  type Cell = { marks: Array<string>; display: string }
  type Doc = { tables: Array<{ sections: Array<{ rows: Array<{ id: string; cells: Record<string, Cell> }> }>; footnotes: Array<string> }> }

  it("compare finds the top two Primary figures not significantly different; report marks both bold, Gamma not", async () => {
    const compared = await runCli(["compare", "--task", "sts2017", "--gold", gold, path.join(folder, "Alpha_run1primary"), path.join(folder, "Beta_run1primary"), "--json"])
    expect(compared.code).toBe(0)
    const p = (JSON.parse(compared.stdout) as { aggregate: { comparison: { test: string; pValue: number } } }).aggregate.comparison
    expect(p.test).toBe("bootstrap")
    expect(p.pValue).toBeGreaterThan(0.05)

    const report = await runCli(["report", "--task", "sts2017", "--gold", gold, folder, "--format", "json"])
    expect(report.code).toBe(0)
    const doc = JSON.parse(report.stdout) as Doc
    const rows = doc.tables[0].sections.flatMap((s) => s.rows)
    const primary = (id: string) => rows.find((r) => r.id === id)!.cells["primary"]
    expect(primary("Alpha/run1").marks).toEqual(["best", "tied"])
    expect(primary("Beta/run1").marks).toEqual(["tied"])
    expect(primary("Gamma/run1").marks).toEqual([])
    expect(doc.tables[0].footnotes).toContain(
      "Bold in Primary: not significantly different from the best ranked run (paired bootstrap stratified by dataset (unweighted mean), 1,000 resamples (seed 12345), p by the normal approximation, Holm-adjusted, p > 0.05)."
    )
  })

  it("the post-deadline run with a Primary above the best ranked run's takes neither the bullet nor the best's place", async () => {
    const report = await runCli(["report", "--task", "sts2017", "--gold", gold, folder, "--format", "json"])
    const rows = (JSON.parse(report.stdout) as Doc).tables[0].sections.flatMap((s) => s.rows)
    expect(rows.map((r) => r.id)).toEqual(["Alpha/run1", "Beta/run1", "Gamma/run1", "Late/run1"])
    const late = rows.find((r) => r.id === "Late/run1")!.cells["primary"]
    expect(Number(late.display)).toBeGreaterThan(Number(rows[0].cells["primary"].display))
    expect(late.marks).not.toContain("best")
    expect(rows[0].cells["primary"].marks).toContain("best")
    const ranked = await runCli(["rank", "--task", "sts2017", "--gold", gold, folder, "--all-runs", "--json"])
    const entries = (JSON.parse(ranked.stdout) as { rankings: { rankings: Array<{ entries: Array<{ id: string; rank: number | null }> }> } }).rankings.rankings[0].entries
    expect(entries.map((e) => [e.id, e.rank])).toEqual([["Alpha/run1", 1], ["Beta/run1", 2], ["Gamma/run1", 3], ["Late/run1", null]])
  })
})
