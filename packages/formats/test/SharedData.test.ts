/**
 * Every file of the public task data in `../shared/data` (beside the checkout), parsed with the
 * parser its name calls for. The data is not shipped with the repository: without it this suite is
 * skipped, and the fixtures under test/fixtures cover the same quirks.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { Issue, Sick, Sts, StsBenchmark, Text } from "@stseval/formats"

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..")
const shared = path.resolve(repoRoot, "../shared")
const data = path.join(shared, "data")
const hasShared = fs.existsSync(data)
if (!hasShared) console.warn(`SharedData.test.ts skipped: ${data} is absent (the public task data beside the checkout)`)

const walk = (dir: string): Array<string> =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]))
const files = hasShared ? walk(data).map((f) => path.relative(data, f).split(path.sep).join("/")).sort() : []

type Kind = "input" | "gold" | "output" | "stsb" | "sick-data" | "sick-run" | "text"
const kindOf = (rel: string): Kind => {
  const base = path.posix.basename(rel)
  if (rel.startsWith("runs/sick2014-posttask/")) return "sick-run"
  if (/^STS(2016)?\.input\..*\.txt$/.test(base)) return "input"
  if (/^STS(2016)?\.gs\..*\.txt$/.test(base)) return "gold"
  if (/^STS\.output\..*\.txt$/.test(base) || base.endsWith(".output.txt")) return "output"
  if (/^sts-.*\.csv$/.test(base)) return "stsb"
  if (/^SICK.*\.txt$/.test(base)) return "sick-data"
  return "text" // readme, LICENSE, .tsv, .ascii, SOURCES.tsv
}

const decode = (rel: string) => Text.decode(new Uint8Array(fs.readFileSync(path.join(data, rel))), rel)
const parse = (rel: string) => {
  const t = decode(rel)
  const kind = kindOf(rel)
  const parsed =
    kind === "input" ? Sts.parseInput(t.value)
    : kind === "gold" ? Sts.parseGold(t.value)
    : kind === "output" ? Sts.parseOutput(t.value)
    : kind === "stsb" ? StsBenchmark.parse(t.value)
    : kind === "sick-data" ? Sick.parseData(t.value)
    : kind === "sick-run" ? Sick.parseRun(t.value)
    : undefined
  return { text: t, kind, value: parsed?.value, issues: [...t.issues, ...(parsed?.issues ?? [])] }
}
const errors = (issues: ReadonlyArray<Issue.Issue>) => issues.filter((i) => i.severity === "error")

// The Insight `*-raw.txt` runs carry a 4th, unnamed column: a malformed file, on every data line.
const isRawRun = (rel: string) => rel.startsWith("runs/sick2014-posttask/") && rel.endsWith("-raw.txt")
// newsick.run has no header line: rejected by the official scorer, an error here (tested below).
const NEWSICK = "runs/sick2014-posttask/The_Meaning_Factory_pre-deadline/newsick.run"

describe.skipIf(!hasShared)("every file of ../shared/data", () => {
  it("the walk found the data (and classified the parseable files)", () => {
    expect(files.length).toBeGreaterThan(150)
    const kinds = new Set(files.map(kindOf))
    expect([...kinds].sort()).toEqual(["gold", "input", "output", "sick-data", "sick-run", "stsb", "text"])
  })

  it.each(files.filter((f) => !isRawRun(f) && f !== NEWSICK))("%s: no errors", (rel) => {
    const p = parse(rel)
    expect(errors(p.issues).map(Issue.format)).toEqual([])
  })

  it.each(files.filter(isRawRun))("%s: a field-count error, whole file (no field), on the data lines", (rel) => {
    const p = parse(rel)
    const errs = errors(p.issues)
    expect(errs.length).toBeGreaterThan(0)
    expect(errs.every((e) => e.code === "field-count" && e.field === undefined)).toBe(true)
    expect(errs[0]).toMatchObject({ line: 2, expected: "3 TAB-separated fields", found: "4 fields" })
    // capped listing: 50 lines shown, then one summary for the other 4877 of the 4927 data lines
    expect(errs.at(-1)!.message).toContain("4877 more lines")
  })
})

describe.skipIf(!hasShared)("SICK (SemEval-2014 Task 1) data against the task paper's counts", () => {
  const sick = (rel: string) => parse(rel).value as Sick.SickData
  it("test 4927 pairs without gold; the annotated test 4927 with gold", () => {
    const test = sick("sick2014/SICK_test.txt")
    expect(test.pairs).toHaveLength(4927)
    expect(test.hasRelatedness).toBe(false)
    expect(test.hasEntailment).toBe(false)
    const annotated = sick("sick2014/SICK_test_annotated.txt")
    expect(annotated.pairs).toHaveLength(4927)
    expect(annotated.hasRelatedness && annotated.hasEntailment).toBe(true)
    expect(annotated.pairs.map((p) => p.pairId)).toEqual(test.pairs.map((p) => p.pairId))
  })

  it("train 4500, trial 500, full release 9840 with a SemEval_set on every pair", () => {
    expect(sick("sick2014/SICK_train.txt").pairs).toHaveLength(4500)
    expect(sick("sick2014/SICK_trial.txt").pairs).toHaveLength(500)
    const full = sick("sick-full/SICK.txt")
    expect(full.fullRelease).toBe(true)
    expect(full.pairs).toHaveLength(9840)
    expect(new Set(full.pairs.map((p) => p.set))).toEqual(new Set(["TRAIN", "TRIAL", "TEST"]))
  })

  it("gold relatedness is on the 1-5 scale and every label is one of the three", () => {
    for (const rel of ["sick2014/SICK_train.txt", "sick2014/SICK_trial.txt", "sick2014/SICK_test_annotated.txt", "sick-full/SICK.txt"]) {
      for (const p of sick(rel).pairs) {
        expect(p.relatedness! >= 1 && p.relatedness! <= 5, `${rel}:${p.line}`).toBe(true)
        expect(Sick.ENTAILMENT_LABELS).toContain(p.entailment)
      }
    }
  })
})

describe.skipIf(!hasShared)("SICK runs", () => {
  const run = (rel: string) => parse(rel)
  it("newsick.run: no header, which the official scorer rejects: an error naming the header line to add", () => {
    const p = run(NEWSICK)
    expect(p.issues.filter((i) => i.severity !== "info").map((i) => `${i.severity}:${i.code}`)).toEqual(["error:missing-header"])
    expect(p.issues.find((i) => i.code === "missing-header")!.message).toContain("add this line at the top (TAB-separated): pair_ID<TAB>entailment_judgment")
  })

  it("newsick.run, lenient: header inferred, entailment present, relatedness absent, with a warning", () => {
    const p = Sick.parseRun(decode(NEWSICK).value, { lenient: true })
    expect(p.value.header).toBe("inferred")
    expect(p.value.entailment).toBe("present")
    expect(p.value.relatedness).toBe("absent")
    expect(p.value.rows).toHaveLength(4927)
    expect(p.issues.filter((i) => i.severity !== "info").map((i) => `${i.severity}:${i.code}`)).toEqual(["warning:missing-header"])
  })

  it("submission.txt: both subtasks, 4927 rows; the Insight runs: relatedness only (NA entailment)", () => {
    const sub = run("runs/sick2014-posttask/The_Meaning_Factory_pre-deadline/submission.txt").value as Sick.SickRun
    expect([sub.entailment, sub.relatedness, sub.rows.length]).toEqual(["present", "present", 4927])
    for (const rel of files.filter((f) => f.startsWith("runs/sick2014-posttask/Insight/"))) {
      const r = run(rel).value as Sick.SickRun
      expect([r.entailment, r.relatedness, r.rows.length], rel).toEqual(["na", "present", 4927])
    }
  })

  it("each well-formed run's pair IDs are exactly the test set's", () => {
    const ids = new Set((parse("sick2014/SICK_test.txt").value as Sick.SickData).pairs.map((p) => p.pairId))
    for (const rel of files.filter((f) => kindOf(f) === "sick-run" && !isRawRun(f))) {
      const r = run(rel).value as Sick.SickRun
      expect(new Set(r.rows.map((x) => x.pairId)), rel).toEqual(ids)
    }
  })
})

describe.skipIf(!hasShared)("STS 2012-2017 and the STS Benchmark against the papers' counts", () => {
  it("STS Benchmark: train 5749, dev 1500, test 1379 rows, scores 0-5", () => {
    for (const [name, n] of [["train", 5749], ["dev", 1500], ["test", 1379]] as const) {
      const d = parse(`stsbenchmark/sts-${name}.csv`).value as StsBenchmark.StsbData
      expect(d.rows).toHaveLength(n)
      expect(d.rows.every((r) => r.score >= 0 && r.score <= 5)).toBe(true)
    }
  })

  it("2017: track 6 input has 500 lines and gold 250; the other tracks 250 each", () => {
    for (const f of files.filter((x) => x.startsWith("sts2017/input/STS.input."))) {
      const n = (parse(f).value as Sts.StsInput).pairs.length
      expect(n, f).toBe(f.includes("track6") ? 500 : 250)
    }
    for (const f of files.filter((x) => x.startsWith("sts2017/gold/"))) {
      const g = parse(f).value as Sts.StsGold
      expect([g.scores.length, g.annotated], f).toEqual([250, 250])
    }
  })

  it("2014 English: deft-forum 450, deft-news 300, headlines, images, OnWN, tweet-news 750", () => {
    const sizes: Record<string, number> = { "deft-forum": 450, "deft-news": 300, headlines: 750, images: 750, OnWN: 750, "tweet-news": 750 }
    for (const [dataset, n] of Object.entries(sizes)) {
      expect((parse(`sts2014/test-en/STS.input.${dataset}.txt`).value as Sts.StsInput).pairs).toHaveLength(n)
      expect((parse(`sts2014/test-en/STS.gs.${dataset}.txt`).value as Sts.StsGold).annotated).toBe(n)
    }
  })

  it("each gold file has one line per input line (blank = not annotated)", () => {
    let checked = 0
    for (const gs of files.filter((f) => kindOf(f) === "gold")) {
      const input = gs.replace(/\.gs\./, ".input.").replace("sts2017/gold/", "sts2017/input/")
      if (!files.includes(input)) continue // 2012 ALL and 2013 SMT (input not public)
      const g = parse(gs).value as Sts.StsGold
      expect(g.scores.length, gs).toBe((parse(input).value as Sts.StsInput).pairs.length - (gs.includes("track6") ? 250 : 0))
      checked++
    }
    // 2012 test 5 + train 3, 2013 3, 2014 6, 2015 5, 2016 5, 2017 7
    expect(checked).toBe(34)
  })

  it("annotated gold pairs match the scored-pair counts of the official scorer's reference runs", () => {
    const ref = fs.readFileSync(path.join(shared, "reference", "sts-synthetic-runs.official.tsv"), "utf8").trim().split("\n").slice(1)
    expect(ref.length).toBeGreaterThan(30)
    for (const row of ref) {
      const [, , runFile, goldFile, scored] = row.split("\t")
      const run = parse(runFile).value as Sts.StsOutput
      if (goldFile.endsWith(".csv")) {
        const rows = (parse(goldFile).value as StsBenchmark.StsbData).rows
        expect([rows.length, run.scores.length], goldFile).toEqual([Number(scored), Number(scored)])
        continue
      }
      const g = parse(goldFile).value as Sts.StsGold
      expect(g.annotated, goldFile).toBe(Number(scored))
      // the run has a line for every gold line, annotated or not
      expect(run.scores.length, runFile).toBe(g.scores.length)
    }
  })

  it("2013/2014 sample outputs give a confidence on every line", () => {
    for (const f of files.filter((x) => /^sts201[34]\/.*STS\.output\./.test(x))) {
      const o = parse(f).value as Sts.StsOutput
      expect(o.confidence?.length, f).toBe(o.scores.length)
    }
  })
})
