/**
 * docs/codabench.md runs as written: every `sh` block, in order, in one folder whose `data/` is the
 * shared data, with `stseval` the single-file CLI built from the sources. What the page says you
 * download from Codabench (`bulk_submissions.zip`, `submissions.csv`) is made before the import
 * block exactly as Codabench v1.23+ makes it (support/codabench.ts), from the shared data's runs;
 * `teams.json` is the organiser's.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { zipSync } from "fflate"
import { beforeAll, describe, expect, it } from "vitest"
import { bulkDownloadV123, csvExport } from "./support/codabench.js"
import type { Submission } from "./support/codabench.js"
import { rankJson } from "./support/fixtures.js"
import { buildCli, hasShared, repoRoot, sharedRoot, tempDir } from "./support/worker.js"

/** The `sh` blocks of a Markdown file, in order. */
const shBlocks = (markdown: string): ReadonlyArray<string> => [...markdown.matchAll(/^( *)```sh\n([\s\S]*?)^\1```/gm)].map((m) => m[2].replace(new RegExp(`^${m[1]}`, "gm"), ""))

const page = fs.readFileSync(path.join(repoRoot, "docs/codabench.md"), "utf8")

describe("docs/codabench.md", () => {
  it("has the blocks this test expects: bundle, the sealed check, unseal, the check after it, import, tables", () => {
    const blocks = shBlocks(page)
    expect(blocks.map((b) => b.trim().split(/\s+/).slice(0, 3).join(" "))).toEqual([
      "stseval codabench bundle",
      "mkdir -p app/input/ref",
      "stseval codabench unseal",
      "rm -rf app/input/ref",
      "stseval codabench import",
      "stseval rank --task"
    ])
  })

  describe.skipIf(!hasShared)("every command, as written, on the shared data", () => {
    let dir: string
    let bin: string
    beforeAll(async () => {
      dir = tempDir("stseval-docs-")
      fs.symlinkSync(path.join(sharedRoot, "data"), path.join(dir, "data"))
      bin = tempDir("stseval-bin-")
      const cli = await buildCli()
      fs.writeFileSync(path.join(bin, "stseval"), `#!/bin/sh\nexec "${process.execPath}" "${cli}" "$@"\n`, { mode: 0o755 })
    }, 180_000)

    const sh = (script: string) =>
      spawnSync("bash", ["--norc", "--noprofile", "-euo", "pipefail", "-c", script], {
        cwd: dir,
        encoding: "utf8",
        env: { PATH: `${bin}:${path.dirname(process.execPath)}:/usr/bin:/bin`, NO_COLOR: "1", HOME: dir },
        timeout: 300_000
      })

    it("runs each block with exit 0 and makes what the page says", async () => {
      const [bundle, sealedCheck, unseal, check, importBlock, tables] = shBlocks(page)

      const made = sh(bundle)
      expect(made.stderr).toBe("")
      expect(made.status).toBe(0)
      expect(fs.existsSync(path.join(dir, "sts2017-codabench.zip"))).toBe(true)
      expect(fs.existsSync(path.join(dir, "semrel2024-a-codabench/eng.zip"))).toBe(true)
      expect(fs.readdirSync(path.join(dir, "semrel2024-a-codabench/eng/reference_data_dev"))).toContain("eng__eng_dev_with_labels.csv")
      expect(made.stdout).toContain("phase Test: 2017-01-09 12:00:00 - 2017-01-30 23:59:59 UTC")
      expect(made.stdout).toContain("phase Scoring: 2017-02-01 23:59:59 - open UTC")
      expect(fs.readdirSync(path.join(dir, "sts2017-codabench/reference_data_test"))).toEqual(["stseval-task.json"])
      expect(fs.existsSync(path.join(dir, "sts2017-codabench.gold/STS.gs.track5.en-en.txt"))).toBe(true)

      // sealed: checked, received, no figure
      const sealed = sh(sealedCheck)
      expect(sealed.stderr).toBe("")
      expect(sealed.status).toBe(0)
      expect(sealed.stdout).toContain("Your submission was received and is valid")
      expect(JSON.parse(fs.readFileSync(path.join(dir, "app/output/scores.json"), "utf8"))).toEqual({})
      const unsealed = sh(unseal)
      expect(unsealed.stderr).toBe("")
      expect(unsealed.status).toBe(0)
      expect(unsealed.stdout).toContain('Resources > Tasks > "sts2017 test"')
      expect(fs.existsSync(path.join(dir, "sts2017-test-gold.zip"))).toBe(true)
      const checked = sh(check)
      expect(checked.status).toBe(0)
      const scores = JSON.parse(fs.readFileSync(path.join(dir, "app/output/scores.json"), "utf8")) as Record<string, number>
      expect(Object.keys(scores)[0]).toBe("official")
      expect(checked.stdout).toContain('"official":')
      expect(checked.stdout).toContain(sealed.stdout.split("\n")[0])

      // What the organiser downloads from Codabench (v1.23+): three participants' test-phase
      // submissions of the shared STS 2017 run, one of them after the deadline, and a failed one.
      const runDir = path.join(sharedRoot, "data/runs/sts-synthetic/sts2017")
      const upload = zipSync(Object.fromEntries(fs.readdirSync(runDir).map((f) => [f, fs.readFileSync(path.join(runDir, f))])))
      const submission = (id: number, owner: string, created: string, status: Submission["status"]): Submission => ({
        id,
        owner,
        phaseId: 2,
        phase: "Test",
        created: new Date(created),
        status,
        uploaded: "submission.zip",
        bytes: upload
      })
      const downloaded = [
        submission(11, "ecnu_user", "2017-01-20T10:00:00Z", "Finished"),
        submission(12, "bit_user", "2017-01-25T10:00:00Z", "Finished"),
        submission(13, "bit_user", "2017-01-26T10:00:00Z", "Failed"),
        submission(14, "ecnu_user", "2017-02-02T10:00:00Z", "Finished")
      ]
      fs.writeFileSync(path.join(dir, "bulk_submissions.zip"), bulkDownloadV123(downloaded))
      fs.writeFileSync(path.join(dir, "submissions.csv"), csvExport("v1.23+", downloaded))
      fs.writeFileSync(path.join(dir, "teams.json"), JSON.stringify({ ecnu_user: "ECNU", bit_user: "BIT" }))
      const imported = sh(importBlock)
      expect(imported.stderr).toBe("")
      expect(imported.status).toBe(0)
      expect(fs.readdirSync(path.join(dir, "sts2017-runs")).filter((f) => !f.startsWith(".")).sort()).toEqual(
        ["BIT_run1.run.json", "BIT_run1.zip", "ECNU_run1.run.json", "ECNU_run1.zip", "ECNU_run2.run.json", "ECNU_run2.zip"]
      )
      expect(JSON.parse(fs.readFileSync(path.join(dir, "sts2017-runs/ECNU_run2.run.json"), "utf8"))).toMatchObject({ primary: false, postDeadline: true })

      const tabled = sh(tables)
      expect(tabled.status).toBe(0)
      expect(tabled.stdout).toContain("ECNU")
      expect(tabled.stdout).toContain("\\begin{tabular}")

      // unsealed and scored again: the figure `rank` gives the same (imported) run
      const ranked = await rankJson("sts2017", path.join(sharedRoot, "data/sts2017/gold"), path.join(dir, "sts2017-runs"), false)
      const ecnu = ranked[0].entries.find((e) => e.team === "ECNU" && e.run === 1)!
      expect(scores["official"]).toBeCloseTo(100 * ecnu.value!, 10)
    }, 600_000)
  })
})
