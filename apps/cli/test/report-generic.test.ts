/**
 * `report` on an edition without published tables: the generic table of each ranking, whatever the
 * edition's family, naming the edition's metric (never a hard-coded "r"), with the order, ranks and
 * marks scoring decided. The made-up task of the docs (examples/made-up-task, ranked per language
 * pair by Kendall's tau-b) is run from its edition file as it is.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { examples, hasShared, runCli, shared } from "./support/cli.js"

const tmp = scratchDir("cli-generic")

describe("the made-up task (ranked per language pair), its edition file alone", () => {
  const task = path.join(examples, "made-up-task")
  const edition = path.join(task, "edition.yaml")
  const args = ["--task", edition, "--gold", path.join(task, "gold.csv"), path.join(task, "submissions")]

  it("a column per language pair and metric headed by the metric's symbol, the rank in each; the caption names Kendall's tau-b", async () => {
    const r = await runCli(["report", ...args])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain("Kendall's tau-b (tau) of the runs on each dataset, with the rank in that dataset in parentheses")
    expect(r.stdout).toMatch(/\| +en-en tau \| +en-en rho \| +en-en r \|/)
    // the post-deadline run (Eclipse) has the best figures, and no rank anywhere
    const eclipse = r.stdout.split("\n").find((l) => l.startsWith("| Eclipse/run1\u2020"))!
    expect(eclipse).not.toMatch(/\(\d\)/)
    expect(r.stdout).toContain("post-deadline submission: listed, never ranked")
  })

  it("the same ranks as rank --all-runs in each language pair", async () => {
    const ranked = await runCli(["rank", ...args, "--all-runs", "--json"])
    const report = await runCli(["report", ...args, "--format", "json"])
    const rankings = (JSON.parse(ranked.stdout) as { rankings: { rankings: Array<{ ranking: string; entries: Array<{ id: string; rank: number | null }> }> } }).rankings.rankings
    const rows = (JSON.parse(report.stdout) as { tables: Array<{ sections: Array<{ rows: Array<{ id: string; cells: Record<string, { rank?: number }> }> }> }> }).tables[0].sections.flatMap((s) => s.rows)
    let checked = 0
    for (const k of rankings) {
      for (const e of k.entries) {
        expect(rows.find((r) => r.id === e.id)!.cells[k.ranking].rank ?? null, `${k.ranking} ${e.id}`).toBe(e.rank)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(10)
  })
})

describe.skipIf(!hasShared)("STS 2015 (no published table): the generic table, Pearson per dataset, the weighted mean, the rank", () => {
  it("columns, the official figure with its marks, the rank", async () => {
    const folder = path.join(tmp, "sts2015", "Synth_run1primary")
    fs.mkdirSync(folder, { recursive: true })
    const source = path.join(shared, "data/runs/sts-synthetic/sts2015")
    for (const f of hasShared ? fs.readdirSync(source) : []) fs.copyFileSync(path.join(source, f), path.join(folder, f))
    const r = await runCli(["report", "--task", "sts2015", "--gold", path.join(shared, "data/sts2015/test"), path.dirname(folder), "--format", "json"])
    expect(r.code).toBe(0)
    const t = (JSON.parse(r.stdout) as { tables: Array<{ id: string; columns: Array<{ key: string; header: string; group?: string }>; sections: Array<{ rows: Array<{ cells: Record<string, { marks: Array<string>; display: string }> }> }> }> }).tables
    expect(t.map((x) => x.id)).toEqual(["generic:similarity"])
    expect(t[0].columns.map((c) => c.header)).toEqual(["Run", "answers-forums", "answers-students", "belief", "headlines", "images", "Weighted mean (official)", "Rank"])
    expect(t[0].columns[1].group).toBe("Pearson")
    const row = t[0].sections[0].rows[0]
    expect(row.cells["official"].marks).toEqual(["best", "tied"])
    expect(row.cells["rank"].display).toBe("1")
  })
})
