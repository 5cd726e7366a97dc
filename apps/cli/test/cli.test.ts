import { describe, expect, it } from "vitest"
import * as Lazy from "../src/internal/Lazy.js"
import { runCli, spawnCli } from "./support/cli.js"

describe("stseval (usage)", () => {
  // the real executable: its exit code and streams as a shell sees them
  it("--help lists every command and exits 0", async () => {
    const r = await spawnCli(["--help"])
    expect(r.code).toBe(0)
    for (const command of ["validate", "score", "rank", "compare", "significance", "baseline", "report", "watch", "tasks", "data"]) expect(r.stdout).toContain(command)
  })

  it("each command's --help shows an example, and the defaults of its flags (resamples, seed)", async () => {
    for (const command of ["validate", "score", "rank", "compare", "significance", "baseline", "report", "watch", "tasks", "data", "codabench"]) {
      const r = await runCli([command, "--help"])
      expect(r.code, command).toBe(0)
      expect(r.stdout, command).toMatch(new RegExp(`EXAMPLES\\n  # .+\\n  stseval ${command} \\S`))
    }
    // compare's one comparison: 10,000; significance: the marks' rule (1,000, Holm), as report
    for (const [command, resamples] of [["compare", 10000], ["significance", 1000]] as const) {
      const help = (await runCli([command, "--help"])).stdout
      expect(help, command).toMatch(new RegExp(`--resamples integer .*\\(default: ${resamples}\\)`))
      expect(help, command).toMatch(/--seed integer .*\(default: 12345\)/)
    }
    expect((await runCli(["significance", "--help"])).stdout).toMatch(/--correction .*\(default: holm\)/)
    expect((await runCli(["watch", "--help"])).stdout).toMatch(/--refresh integer .*\(default: 30\)/)
  })

  it("an unknown flag is a usage error: exit 2", async () => {
    const r = await runCli(["tasks", "--no-such-flag"])
    expect(r.code).toBe(2)
    expect(r.stdout + r.stderr).toContain("--no-such-flag")
  })

  it("an unknown task edition is one line on stderr, exit 2, no stack trace", async () => {
    for (const r of [await spawnCli(["data", "status", "sts1999"]), await runCli(["data", "status", "sts1999"])]) {
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('no built-in edition "sts1999"')
      expect(r.stderr).not.toMatch(/\n\s+at /)
      expect(r.stdout).toBe("")
    }
  })

  it("in-process runs keep their own output and environment: nothing leaks from one run into the next", async () => {
    const a = await runCli(["tasks"], { env: { STSEVAL_DATA: "/nowhere/a" } })
    const b = await runCli(["data", "status", "sick2014"], { env: { STSEVAL_DATA: "/nowhere/b" } })
    expect(a.code).toBe(0)
    expect(a.stdout).toMatch(/^sick2014\s/m)
    expect(b.stdout).not.toMatch(/^sick2014\s+SemEval/m)
    expect(b.stdout + b.stderr).toContain("/nowhere/b")
    expect(b.stdout + b.stderr).not.toContain("/nowhere/a")
  })

  it("tasks lists the built-in editions, as text and as JSON", async () => {
    const text = await runCli(["tasks"])
    expect(text.code).toBe(0)
    for (const id of ["sick2014", "sts2012", "sts2014", "sts2017", "stsb"]) expect(text.stdout).toMatch(new RegExp(`^${id}\\s`, "m"))
    const json = await runCli(["tasks", "--json"])
    const editions = JSON.parse(json.stdout) as Array<{ id: string; runLimit: number }>
    expect(editions.find((e) => e.id === "sick2014")?.runLimit).toBe(5)
    expect(editions.find((e) => e.id === "sts2017")?.runLimit).toBe(3)
  })
})

describe("names the CLI lists without loading the packages (internal/Lazy.ts)", () => {
  it("are the packages' own lists", async () => {
    const { Compare } = await import("@stseval/significance")
    expect(Lazy.testNames).toEqual(Compare.testNames)
    // significance's defaults are the marks' rule
    const Marks = await import("@stseval/scoring/Marks")
    expect(Lazy.ruleDefaults).toEqual({ alpha: Marks.defaults.alpha, correction: Marks.defaults.correction, resamples: Marks.defaults.resamples, seed: Marks.defaults.seed })
  })
})
