/**
 * `watch` when its output folder is taken by another watcher: exit 2 and a message naming it.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { examples, runCli } from "./support/cli.js"

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-cli-watch-"))
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

describe("stseval watch: the output folder's lock", () => {
  it("a live watcher's lock on --out: exit 2, the pid named, nothing written", async () => {
    const out = path.join(tmp, "out")
    fs.mkdirSync(out)
    // this process is alive: its lock holds
    fs.writeFileSync(path.join(out, "watch.lock"), JSON.stringify({ pid: process.pid, host: os.hostname(), startedAt: "2026-11-23T00:00:00Z" }))
    const r = await runCli(["watch", "--task", "sick2014", "--gold", path.join(examples, "sick2014/SICK_test_annotated.txt"), "--once", "--out", out, path.join(examples, "sick2014/submissions")])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`another watcher (pid ${process.pid}`)
    expect(r.stderr).not.toMatch(/\n\s+at /)
    expect(fs.existsSync(path.join(out, "leaderboard.json"))).toBe(false)
  })
})

describe("stseval watch --hidden: the public view", () => {
  it("shows no server path and nothing of a run that is a symlink to /etc/passwd", async () => {
    const folder = path.join(tmp, "subs")
    fs.mkdirSync(folder)
    const submissions = path.join(examples, "sick2014/submissions")
    for (const name of fs.readdirSync(submissions)) fs.copyFileSync(path.join(submissions, name), path.join(folder, name))
    fs.symlinkSync("/etc/passwd", path.join(folder, "Evil_run1primary.txt"))
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
