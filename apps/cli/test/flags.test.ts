/**
 * Flags with a range are checked when parsed (apps/cli/src/internal/Flags.ts): a bad value is a
 * usage error (exit 2) naming the flag, never a stack trace or a silently rolled-over date. And
 * what the CLI prints reaches the terminal without control characters (`Terminal.sanitize`).
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it, onTestFinished } from "vitest"
import { strictInstant, validDecimals, validLevel } from "../src/internal/Flags.js"
import { sanitize } from "../src/internal/Terminal.js"
import { examples, runCli } from "./support/cli.js"

const sickGold = path.join(examples, "sick2014/SICK_test_annotated.txt")
const submissions = path.join(examples, "sick2014/submissions")
const run = path.join(submissions, "MeaningFactory_run1primary.txt")

describe("flag validation", () => {
  it("--decimals -1 is a usage error, not a toFixed RangeError", async () => {
    const r = await runCli(["score", "--task", "sick2014", "--gold", sickGold, "--decimals", "-1", run])
    expect(r.code).toBe(2)
    expect(r.stderr + r.stdout).toContain("--decimals")
    expect(r.stderr + r.stdout).not.toMatch(/RangeError|\n\s+at /)
  })

  it("--alpha 2 and --resamples 0 are usage errors", async () => {
    const [alpha, resamples] = await Promise.all([
      runCli(["significance", "--task", "sick2014", "--gold", sickGold, "--alpha", "2", submissions]),
      runCli(["significance", "--task", "sick2014", "--gold", sickGold, "--test", "bootstrap", "--resamples", "0", submissions])
    ])
    expect(alpha.code).toBe(2)
    expect(alpha.stderr + alpha.stdout).toContain("0 < alpha < 1")
    expect(resamples.code).toBe(2)
    expect(resamples.stderr + resamples.stdout).toContain("--resamples")
  })

  it("--deadline 2014-02-30 is a usage error (no roll-over to 2 March)", async () => {
    const r = await runCli(["watch", "--task", "sick2014", "--gold", sickGold, "--once", "--deadline", "2014-02-30", "--out", "/nonexistent-q16", submissions])
    expect(r.code).toBe(2)
    expect(r.stderr + r.stdout).toContain("2014-02-30")
  })

  it("validators: strict calendar dates, decimals 0..20, levels in (0, 1)", () => {
    for (const ok of ["2014-02-28", "2016-02-29", "2017-01-31T23:59:00Z", "2017-01-31T23:59", "2017-01-31T23:59:59.5+02:00"]) expect(strictInstant(ok), ok).toBe(true)
    for (const bad of ["2014-02-30", "2015-02-29", "2017-13-01", "2017-04-31", "2017-01-31T24:00:00Z", "2017-01-31T23:60Z", "yesterday", ""]) expect(strictInstant(bad), bad).toBe(false)
    expect([0, 3, 20].map(validDecimals)).toEqual([true, true, true])
    expect([-1, 21, 1.5].map(validDecimals)).toEqual([false, false, false])
    expect([0.05, 0.999].map(validLevel)).toEqual([true, true])
    expect([0, 1, 2, -0.1, Number.NaN].map(validLevel)).toEqual([false, false, false, false, false])
  })
})

describe("watch's integer flags", () => {
  it("--debounce -1 and --run-limit 0 are usage errors naming the flag", async () => {
    const base = ["watch", "--task", "sick2014", "--gold", sickGold, "--once", "--out", "/nonexistent-q16", submissions]
    const [debounce, limit] = await Promise.all([runCli([...base, "--debounce", "-1"]), runCli([...base, "--run-limit", "0"])])
    expect(debounce.code).toBe(2)
    expect(debounce.stderr + debounce.stdout).toContain("--debounce: -1 must be 0 or more")
    expect(limit.code).toBe(2)
    expect(limit.stderr + limit.stdout).toContain("--run-limit: 0 must be 1 or more")
  })
})

describe("terminal output", () => {
  const escapes = "\u001b]0;pwned\u0007\u001b[2J\u001b[H"
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-cli-escapes-"))
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

  it("a label, a team name and a file name holding terminal escapes are printed escaped by score, rank and validate", async () => {
    const [header, first, ...rest] = fs.readFileSync(run, "utf8").split("\n")
    const cells = first.split("\t")
    cells[1] = `ENTAILMENT${escapes}`
    const evil = path.join(dir, `Evil${escapes}_run1primary.txt`)
    fs.writeFileSync(evil, [header, cells.join("\t"), ...rest].join("\n"))
    fs.copyFileSync(run, path.join(dir, "MeaningFactory_run1primary.txt"))
    const results = await Promise.all([
      runCli(["score", "--task", "sick2014", "--gold", sickGold, evil]),
      runCli(["rank", "--task", "sick2014", "--gold", sickGold, dir]),
      runCli(["validate", "--task", "sick2014", "--gold", sickGold, evil])
    ])
    for (const r of results) {
      const all = r.stdout + r.stderr
      expect(all).toContain("Evil")
      // no ESC, BEL or other control character but the newline reaches the terminal
      // eslint-disable-next-line no-control-regex
      expect(all).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/)
      expect(all).toContain("\\x1b[2J")
    }
  })

  it("sanitize: keeps newlines and colour, escapes everything else", () => {
    expect(sanitize("a\nb")).toBe("a\nb")
    expect(sanitize("\u001b[1mbold\u001b[22m \u001b[32;1mok\u001b[0m")).toBe("\u001b[1mbold\u001b[22m \u001b[32;1mok\u001b[0m")
    expect(sanitize("x\u001b[2Jy\u001b]0;t\u0007\tz\r")).toBe("x\\x1b[2Jy\\x1b]0;t\\x07\\tz\\x0d")
    expect(sanitize("\u001b[8mhidden")).toBe("\\x1b[8mhidden")
    expect(sanitize("abc\u202edef")).toBe("abc\\u202edef")
    expect(sanitize("a\u007fb\u0085c")).toBe("a\\u007fb\\u0085c")
  })

  it("sanitize keeps a --json document valid JSON with the same strings (DEL, C1 and bidi controls in a run id)", () => {
    const doc = { run: "Team\u007f\u0085\u009b\u202e\u2066/run1", team: "x\u001b[2Jy\tz", lines: ["a\nb"] }
    const printed = sanitize(JSON.stringify(doc, null, 2))
    // eslint-disable-next-line no-control-regex
    expect(printed).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/)
    expect(JSON.parse(printed)).toEqual(doc)
  })
})

describe("--ci", () => {
  const base = ["score", "--task", "sick2014", "--gold", sickGold]
  it("--ci 0, 100 and 150 are usage errors that say what a level is; --ci 1 is 1% (issue 24: it was refused)", async () => {
    const [zero, hundred, over, one] = await Promise.all(["0", "100", "150", "1"].map((l) => runCli([...base, "--ci", l, run])))
    for (const r of [zero, hundred, over]) {
      expect(r.code).toBe(2)
      expect(r.stderr + r.stdout).toContain("expected a confidence level in percent, from 1 up to (not including) 100")
    }
    expect(one.code).toBe(0)
    expect(one.stdout).toContain("[low, high]: 1% percentile bootstrap intervals")
    expect(one.stdout).toContain("|level:0.01|")
  })

  it("--ci 99.9 is printed 99.9% with level 0.999 in the signature (99.9 / 100 is 0.9990000000000001 in doubles)", async () => {
    // 99.9% takes 2,001 resamples at least, seconds a run on SICK's 4,927 pairs; how the level is
    // printed does not depend on the pairs: the first 500 of the gold, and the run's lines for them
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-cli-level-"))
    onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }))
    const goldLines = fs.readFileSync(sickGold, "utf8").split("\n")
    const ids = new Set(goldLines.slice(1, 501).map((l) => l.split("\t")[0]))
    const [header, ...runLines] = fs.readFileSync(run, "utf8").split("\n")
    const gold = path.join(dir, "gold.txt")
    const small = path.join(dir, "MeaningFactory_run1primary.txt")
    fs.writeFileSync(gold, `${goldLines.slice(0, 501).join("\n")}\n`)
    fs.writeFileSync(small, `${[header, ...runLines.filter((l) => ids.has(l.split("\t")[0]))].join("\n")}\n`)
    const level = ["score", "--task", "sick2014", "--gold", gold, "--ci", "99.9", "--resamples", "2001"]
    const r = await runCli([...level, "--json", small])
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout) as { runs: Array<{ datasets: Record<string, { pairs: number }> }>; intervals: { level: number; signature: string } }
    expect(doc.runs[0].datasets["relatedness"].pairs).toBe(500)
    expect(doc.intervals.level).toBe(0.999)
    expect(doc.intervals.signature).toContain("|level:0.999|")
    const text = await runCli([...level, small])
    expect(text.stdout).toContain("[low, high]: 99.9% percentile bootstrap intervals")
    expect(text.stdout).not.toMatch(/100%|0\.99900000/)
  })

  it("--resamples below 1 + 2 / (1 - level) is a usage error naming the minimum; below 1,000 the output says so", async () => {
    const [one, forty, fortyOne, ninetyNine] = await Promise.all([
      runCli([...base, "--ci", "95", "--resamples", "1", run]),
      runCli([...base, "--ci", "95", "--resamples", "40", run]),
      runCli([...base, "--ci", "95", "--resamples", "41", run]),
      runCli([...base, "--ci", "99", "--resamples", "200", run])
    ])
    for (const r of [one, forty]) {
      expect(r.code).toBe(2)
      expect(r.stderr).toContain("--resamples: resamples: expected at least 41 for a 95% interval")
    }
    expect(ninetyNine.code).toBe(2)
    expect(ninetyNine.stderr).toContain("expected at least 201 for a 99% interval")
    expect(fortyOne.code).toBe(0)
    expect(fortyOne.stdout).toContain("41 resamples, fewer than the 1,000 recommended")
  })
})
