/**
 * `watch` when its output folder is taken by another watcher: exit 2 and a message naming it.
 */
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { backdate, examples, runCli } from "./support/cli.js"

const tmp = scratchDir("cli-watch")

describe("stseval watch: the output folder's lock", () => {
  it("a live watcher's lock on --out: exit 2, the pid named, nothing written", async () => {
    const out = path.join(tmp, "out")
    fs.mkdirSync(out)
    // a process that is alive, and started before its lock was written, holds it (this process's
    // own pid with an older date would be its former self, as in a restarted container: stale)
    const holder = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" })
    try {
      fs.writeFileSync(path.join(out, "watch.lock"), JSON.stringify({ pid: holder.pid, host: os.hostname(), startedAt: new Date().toISOString() }))
      const r = await runCli(["watch", "--task", "sick2014", "--gold", path.join(examples, "sick2014/SICK_test_annotated.txt"), "--once", "--out", out, path.join(examples, "sick2014/submissions")])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain(`another watcher (pid ${holder.pid}`)
      expect(r.stderr).not.toMatch(/\n\s+at /)
      expect(fs.existsSync(path.join(out, "leaderboard.json"))).toBe(false)
    } finally {
      holder.kill("SIGKILL")
    }
  })
})

describe("stseval watch --hidden: the public view", () => {
  it("shows no server path and nothing of a run that is a symlink to /etc/passwd", async () => {
    const folder = path.join(tmp, "subs")
    fs.mkdirSync(folder)
    const submissions = path.join(examples, "sick2014/submissions")
    for (const name of fs.readdirSync(submissions)) fs.copyFileSync(path.join(submissions, name), path.join(folder, name))
    fs.symlinkSync("/etc/passwd", path.join(folder, "Evil_run1primary.txt"))
    backdate(folder)
    const out = path.join(tmp, "hidden-out")
    const r = await runCli(["watch", "--task", "sick2014", "--gold", path.join(examples, "sick2014/SICK_test_annotated.txt"), "--once", "--hidden", "--out", out, folder])
    expect(r.code).toBe(0)
    const publicJson = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.public.json"), "utf8")) as { runs: Array<{ entry: string; status: string; errors: Array<{ file: string }> }> }
    const evil = publicJson.runs.find((x) => x.entry === "Evil_run1primary.txt")!
    expect(evil.status).toBe("failed")
    for (const name of ["leaderboard.public.json", "leaderboard.public.md", "leaderboard.public.html"]) {
      const text = fs.readFileSync(path.join(out, name), "utf8")
      expect(text, name).not.toContain(tmp)
      expect(text, name).not.toMatch(/root:x?:0:0|\/bin\/(ba)?sh/)
    }
    // the errors still say which file: from the run's entry on
    expect(evil.errors.some((i) => i.file.startsWith("Evil_run1primary.txt"))).toBe(true)
    expect(publicJson.runs.flatMap((x) => x.errors).every((i) => !i.file.startsWith("/"))).toBe(true)
  })
})

describe("a 1 MB team name in run.json", () => {
  it("rank and watch --once: a clear bad-run-metadata error, the other runs ranked, no RangeError, outputs of normal size", async () => {
    const folder = path.join(tmp, "big")
    fs.mkdirSync(folder)
    const submissions = path.join(examples, "sick2014/submissions")
    fs.copyFileSync(path.join(submissions, "Insight_run1primary.txt"), path.join(folder, "Insight_run1primary.txt"))
    fs.mkdirSync(path.join(folder, "Big_run1primary"))
    fs.copyFileSync(path.join(submissions, "MeaningFactory_run1primary.txt"), path.join(folder, "Big_run1primary", "run.txt"))
    fs.writeFileSync(path.join(folder, "Big_run1primary", "run.json"), JSON.stringify({ team: "T".repeat(1_000_000) }))
    backdate(folder)
    const gold = path.join(examples, "sick2014/SICK_test_annotated.txt")
    const out = path.join(tmp, "big-out")
    const [rank, watch] = await Promise.all([
      runCli(["rank", "--task", "sick2014", "--gold", gold, folder]),
      runCli(["watch", "--task", "sick2014", "--gold", gold, "--once", "--out", out, folder])
    ])
    for (const r of [rank, watch]) {
      expect(r.stdout + r.stderr).not.toMatch(/RangeError|\n\s+at /)
      expect((r.stdout + r.stderr).length).toBeLessThan(20_000)
    }
    expect(rank.stdout).toMatch(/^\s+1\s+\S+\/run1\s/m)
    expect(rank.stdout).toContain("at most 200")
    expect(watch.code).toBe(0)
    const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as { counts: { ranked: number }; runs: Array<{ errors: Array<{ code: string }> }> }
    expect(board.counts.ranked).toBeGreaterThanOrEqual(1)
    expect(board.runs.some((r) => r.errors.some((i) => i.code === "bad-run-metadata"))).toBe(true)
    for (const name of fs.readdirSync(out).filter((n) => n.startsWith("leaderboard."))) expect(fs.statSync(path.join(out, name)).size).toBeLessThan(500_000)
  })
})

describe("stseval watch --hidden: a SemRel length mismatch", () => {
  it("names the gold by its file name only: no server folder in leaderboard.public.json, status.json or the public pages", async () => {
    const goldDir = path.join(tmp, "server", "gold", "semrel")
    fs.mkdirSync(goldDir, { recursive: true })
    const goldFile = path.join(goldDir, "eng_test_with_labels.csv")
    fs.writeFileSync(goldFile, `PairID,Text,Score\n${[1, 2, 3, 4, 5].map((i) => `eng-${i},"a sentence\nanother",0.${i}\n`).join("")}`)
    const folder = path.join(tmp, "semrel-subs")
    fs.mkdirSync(path.join(folder, "Short_run1"), { recursive: true })
    fs.writeFileSync(path.join(folder, "Short_run1", "pred_eng.csv"), "PairID,Pred_Score\neng-1,0.5\neng-2,0.4\n")
    backdate(folder)
    const out = path.join(tmp, "semrel-out")
    const r = await runCli(["watch", "--task", "semrel2024-a", "--gold", goldFile, "--once", "--hidden", "--out", out, folder])
    expect(r.code).toBe(0)
    const status = fs.readFileSync(path.join(out, "status.json"), "utf8")
    // the mismatch is reported, naming the gold file
    expect(status).toContain("eng_test_with_labels.csv")
    expect(status).toContain("different number of lines")
    for (const name of ["leaderboard.public.json", "leaderboard.public.md", "leaderboard.public.html", "status.json"]) {
      const text = fs.readFileSync(path.join(out, name), "utf8")
      expect(text, name).not.toContain(goldDir)
      expect(text, name).not.toContain(tmp)
      expect(text, name).not.toContain(fs.realpathSync(tmp))
    }
  })
})

describe("rank and watch list the same runs", () => {
  it("*.part, *~ and *.tmp are no runs for either; a name that is not UTF-8 is a failed run for both", async () => {
    const folder = path.join(tmp, "agree")
    fs.mkdirSync(folder)
    const submissions = path.join(examples, "sick2014/submissions")
    const one = path.join(submissions, "Insight_run1primary.txt")
    fs.copyFileSync(one, path.join(folder, "Insight_run1primary.txt"))
    for (const partial of ["Half_run1.txt.part", "Edit_run1.txt~", "Temp_run1.tmp", "Down_run1.txt.crdownload"]) fs.copyFileSync(one, path.join(folder, partial))
    // "Équipe_run1.txt" in Latin-1: 0xC9 is not valid UTF-8
    fs.writeFileSync(Buffer.concat([Buffer.from(`${folder}/`), Buffer.from([0xc9]), Buffer.from("quipe_run1.txt")]), fs.readFileSync(one))
    backdate(folder)
    const gold = path.join(examples, "sick2014/SICK_test_annotated.txt")
    const out = path.join(tmp, "agree-out")
    const rank = await runCli(["rank", "--task", "sick2014", "--gold", gold, "--json", folder])
    const watch = await runCli(["watch", "--task", "sick2014", "--gold", gold, "--once", "--out", out, folder])
    expect(watch.code).toBe(0)
    const ranked = JSON.parse(rank.stdout) as { runs: Array<{ run: { id: string }; status: string; errors: Array<{ message: string }> }> }
    const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as { runs: Array<{ id: string; status: string; failure: string | null }> }
    const byRank = ranked.runs.map((r) => [r.run.id, r.status]).sort()
    const byWatch = board.runs.map((r) => [r.id, r.status]).sort()
    expect(byRank).toEqual(byWatch)
    expect(byRank).toHaveLength(2)
    expect(byRank.map(([, status]) => status).sort()).toEqual(["failed", "scored"])
    const bad = ranked.runs.find((r) => r.status === "failed")!
    expect(bad.errors.map((e) => e.message).join(" ")).toContain("not valid UTF-8")
    expect(board.runs.find((r) => r.status === "failed")!.failure).toContain("not valid UTF-8")
  })
})
