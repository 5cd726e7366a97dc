/**
 * One reader for every input (issue 22): `import mteb`, `report --config`, `codabench import` (its
 * download, `--manifest`, `--teams`) and the watcher's zip probe read through formats' `Files`, as
 * runs are: a regular file only (a FIFO never hangs, `/dev/zero` is refused at once, not read until
 * memory runs out), and a FIFO `*.zip` stops `codabench import` before anything is written.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { backdate, examples, runCli } from "./support/cli.js"

const tmp = scratchDir("cli-inputs")

const posix = process.platform !== "win32" && fs.existsSync("/dev/zero")
const fifo = (name: string): string => {
  const file = path.join(tmp, name)
  execFileSync("mkfifo", [file])
  return file
}
const sickGold = path.join(examples, "sick2014/SICK_test_annotated.txt")
const sickRuns = path.join(examples, "sick2014/submissions")

describe.skipIf(!posix)("inputs that are not regular files: refused at once, never read", () => {
  it("import mteb: /dev/zero and a FIFO are errors naming the file; nothing is written", async () => {
    for (const input of ["/dev/zero", fifo("STS17_predictions.json")]) {
      const out = path.join(tmp, `mteb-out-${path.basename(input)}`)
      const r = await runCli(["import", "mteb", input, "--task", "stsb", "--out", out])
      expect(r.code, input).toBe(1)
      expect(r.stderr).toContain("not a regular file")
      expect(fs.existsSync(out)).toBe(false)
    }
  })

  it("report --config: /dev/zero and a FIFO are usage errors (exit 2)", async () => {
    for (const config of ["/dev/zero", fifo("report.yaml")]) {
      const r = await runCli(["report", "--task", "sick2014", "--gold", sickGold, "--config", config, sickRuns])
      expect(r.code, config).toBe(2)
      expect(r.stderr).toMatch(/--config: .*not a regular file/)
    }
  })

  it("codabench import: the download, --manifest and --teams as /dev/zero or a FIFO are usage errors; --out stays unwritten", async () => {
    const folder = path.join(tmp, "download")
    fs.mkdirSync(folder)
    fs.writeFileSync(path.join(folder, "Team_run1.zip"), fs.readFileSync(path.join(examples, "..", "packages/formats/test/fixtures/sts/STS.output.bad.txt")))
    const cases: ReadonlyArray<ReadonlyArray<string>> = [
      ["/dev/zero"],
      [fifo("bulk_submissions.zip")],
      [folder, "--manifest", "/dev/zero"],
      [folder, "--manifest", fifo("submissions.csv")],
      [folder, "--teams", "/dev/zero"],
      [folder, "--teams", fifo("teams.json")]
    ]
    for (const [i, args] of cases.entries()) {
      const out = path.join(tmp, `import-out-${i}`)
      const r = await runCli(["codabench", "import", ...args, "--out", out])
      expect(r.code, args.join(" ")).toBe(2)
      expect(r.stderr, args.join(" ")).toContain("not a regular file")
      expect(fs.existsSync(out) ? fs.readdirSync(out) : [], args.join(" ")).toEqual([])
    }
  })

  it("codabench import: a FIFO among the submission zips stops the import before anything is written", async () => {
    const folder = path.join(tmp, "download-fifo")
    fs.mkdirSync(folder)
    const zip = fs.readdirSync(sickRuns).find((n) => n.endsWith(".txt"))!
    // a real zip first (sorted before the FIFO), then the FIFO
    execFileSync("python3", ["-c", `import zipfile,sys; z=zipfile.ZipFile(sys.argv[1],"w"); z.write(sys.argv[2], "run.txt"); z.close()`, path.join(folder, "A_run1.zip"), path.join(sickRuns, zip)])
    execFileSync("mkfifo", [path.join(folder, "B_run1.zip")])
    const out = path.join(tmp, "import-out-fifo")
    const r = await runCli(["codabench", "import", folder, "--out", out])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("B_run1.zip: the submission zip is a FIFO (named pipe), not a regular file")
    expect(fs.existsSync(out) ? fs.readdirSync(out) : []).toEqual([])
  })

  it("watch --once: a *.zip that is a FIFO or a link to /proc/self/pagemap is a failed run, read not at all; the others are ranked", async () => {
    const folder = path.join(tmp, "subs")
    fs.mkdirSync(folder)
    for (const name of fs.readdirSync(sickRuns)) fs.copyFileSync(path.join(sickRuns, name), path.join(folder, name))
    execFileSync("mkfifo", [path.join(folder, "Pipe_run1.zip")])
    if (fs.existsSync("/proc/self/pagemap")) fs.symlinkSync("/proc/self/pagemap", path.join(folder, "Evil_run1.zip"))
    backdate(folder)
    const out = path.join(tmp, "watch-out")
    const r = await runCli(["watch", "--task", "sick2014", "--gold", sickGold, "--once", "--out", out, folder])
    expect(r.code).toBe(0)
    const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as { counts: { ranked: number }; runs: Array<{ entry: string; status: string; errors: Array<{ message: string }> }> }
    expect(board.counts.ranked).toBeGreaterThan(0)
    const pipe = board.runs.find((x) => x.entry === "Pipe_run1.zip")
    expect(pipe?.status).toBe("failed")
    expect(pipe?.errors.map((e) => e.message).join(" ")).toContain("not a regular file")
    if (fs.existsSync("/proc/self/pagemap")) expect(board.runs.find((x) => x.entry === "Evil_run1.zip")?.status).toBe("failed")
  })
})

describe.skipIf(!fs.existsSync("/dev/full"))("a full disk, in words", () => {
  it("report --out /dev/full: exit 2, \"no space is left on the device (ENOSPC)\", not \"Unknown: FileSystem.writeFile\"", async () => {
    const r = await runCli(["report", "--task", "sick2014", "--gold", sickGold, "--out", "/dev/full", sickRuns])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("--out: /dev/full: no space is left on the device (ENOSPC)")
    expect(r.stderr).not.toContain("Unknown")
  })
})

describe("a billion-laughs --task YAML", () => {
  it("is a clear usage error naming the file (exit 2), not an uncaught ReferenceError with a stack trace", async () => {
    const levels = "abcdefghi".split("")
    const yaml = levels
      .map((l, i) => `${l}: &${l} [${i === 0 ? Array(9).fill('"lol"').join(",") : Array(9).fill(`*${levels[i - 1]}`).join(",")}]`)
      .join("\n")
    const file = path.join(tmp, "laughs.yaml")
    fs.writeFileSync(file, `${yaml}\n`)
    const r = await runCli(["score", "--task", file, "--gold", sickGold, path.join(sickRuns, "Insight_run1primary.txt")])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain(`${file}: not usable YAML`)
    expect(r.stderr).not.toMatch(/ReferenceError|\n\s+at /)
  })
})
