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
