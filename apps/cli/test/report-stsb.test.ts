/**
 * STS Benchmark's Table 14 through `stseval report` (issue 24): without dev scores (`--dev`) the
 * table has no Dev column, in every format; with them it has one.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { hasShared, runCli, shared } from "./support/cli.js"

const tmp = scratchDir("cli-stsb")

if (!hasShared) console.warn("apps/cli report-stsb.test.ts: ../shared is absent; skipped")

describe.skipIf(!hasShared)("stseval report --task stsb", () => {
  const test = path.join(tmp, "test")
  const dev = path.join(tmp, "dev")
  const gold = path.join(shared, "data/stsbenchmark/sts-test.csv")
  const devGold = path.join(shared, "data/stsbenchmark/sts-dev.csv")
  // a run of each split: the gold's own scores, a little shuffled off (no need for a real system)
  const write = (folder: string, goldFile: string) => {
    fs.mkdirSync(folder, { recursive: true })
    const scores = fs.readFileSync(goldFile, "utf8").split("\n").filter((l) => l.trim() !== "").map((l, i) => Number(l.split("\t")[4]) + 0.8 * Math.sin(i * 12.9898))
    fs.writeFileSync(path.join(folder, "Alpha_run1primary.txt"), scores.map((x) => `${x.toFixed(4)}\n`).join(""))
  }
  if (hasShared) {
    write(test, gold)
    write(dev, devGold)
  }

  it("without --dev: no Dev column (Markdown, LaTeX, HTML, JSON), and the caption names the test set only", async () => {
    const json = await runCli(["report", "--task", "stsb", "--gold", gold, test, "--format", "json"])
    expect(json.code).toBe(0)
    const doc = JSON.parse(json.stdout) as { tables: Array<{ caption: string; columns: Array<{ header: string }> }> }
    expect(doc.tables[0].columns.map((c) => c.header)).toEqual(["Run", "Test"])
    expect(doc.tables[0].caption).toMatch(/test set\.$/)
    for (const format of ["md", "latex", "html"]) {
      const r = await runCli(["report", "--task", "stsb", "--gold", gold, test, "--format", format])
      expect(r.code).toBe(0)
      expect(r.stdout).not.toMatch(/\bDev\b/)
    }
  })

  it("with --dev: the Dev column beside Test", async () => {
    const json = await runCli(["report", "--task", "stsb", "--gold", gold, test, "--dev", dev, "--dev-gold", devGold, "--format", "json"])
    expect(json.code).toBe(0)
    const doc = JSON.parse(json.stdout) as { tables: Array<{ columns: Array<{ header: string }> }> }
    expect(doc.tables[0].columns.map((c) => c.header)).toEqual(["Run", "Dev", "Test"])
  })
})
