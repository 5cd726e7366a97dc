/**
 * SemEval-2024 Task 1 (SemRel) files: data csv (quoted two-line Text, pan's column order, afr's tab),
 * submissions checked as the organisers' evaluation.py does (each refusal a typed issue with its
 * line), gold loading for the three editions, and — with ../shared — every SemRel file of the
 * release parsed and the official evaluation.py figures of the synthetic runs reproduced to 1e-9
 * (Spearman from @stseval/metrics on the runs matched by PairID).
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { tsvRows } from "@stseval/vitest-config/tsv"
import { zipSync } from "fflate"
import { Gold, Issue, Registry, SemRel, Submissions, Text } from "@stseval/formats"
import { Pearson, Spearman } from "@stseval/metrics"

const here = path.dirname(fileURLToPath(import.meta.url))
const fixtures = path.join(here, "fixtures", "semrel")
const track = path.join(fixtures, "track-x")
const shared = path.resolve(here, "../../../../shared")
const hasShared = fs.existsSync(path.join(shared, "data", "semrel2024")) && fs.existsSync(path.join(shared, "reference"))
if (!hasShared) console.warn(`SemRel.test.ts: the ../shared checks are skipped: ${shared}/data/semrel2024 is absent`)

const run = <A, E>(effect: Effect.Effect<A, E, NodeServices.NodeServices>) => Effect.runPromise(effect.pipe(Effect.provide(NodeServices.layer)))
const text = (content: string, file = "pred_eng.csv") => Text.fromString(content, file).value
const read = (file: string) => Text.decode(new Uint8Array(fs.readFileSync(file)), file)
const errors = (issues: ReadonlyArray<Issue.Issue>) => issues.filter((i) => i.severity === "error")

const engGold = (): SemRel.GoldPairs => {
  const parsed = SemRel.parseData(read(path.join(track, "eng", "eng_test_with_labels.csv")).value)
  return { file: "eng_test_with_labels.csv", pairIds: parsed.value.pairs.map((p) => p.pairId), scores: Float64Array.from(parsed.value.pairs, (p) => p.score!) }
}
const IDS = ["ENG-test-0000", "ENG-test-0001", "ENG-test-0002", "ENG-test-0003", "ENG-test-0004"]
const submission = (rows: ReadonlyArray<string>, header = "PairID,Pred_Score") => text(`${header}\n${rows.join("\n")}\n`)

describe("SemRel data files", () => {
  it("reads the quoted two-line Text field (CRLF file), with the line each pair starts on", () => {
    const t = read(path.join(track, "eng", "eng_test_with_labels.csv"))
    const parsed = SemRel.parseData(t.value)
    expect(errors(parsed.issues)).toEqual([])
    expect(parsed.value.hasScores).toBe(true)
    expect(parsed.value.pairs.map((p) => [p.pairId, p.line, p.score])).toEqual([
      ["ENG-test-0000", 2, 0.9],
      ["ENG-test-0001", 4, 0.25],
      ["ENG-test-0002", 6, 0.5],
      ["ENG-test-0003", 8, 0.4],
      ["ENG-test-0004", 10, 0.8]
    ])
    // commas and doubled quotes stay inside the quoted field
    expect(parsed.value.pairs[0]).toMatchObject({ sentence1: "A man, a plan.", sentence2: "A plan, a man." })
    expect(parsed.value.pairs[1]).toMatchObject({ sentence1: 'He said "hi".', sentence2: "She left." })
  })

  it("reads columns by name (pan: Text,Score,PairID) and splits afr's Text at the tab", () => {
    const pan = SemRel.parseData(read(path.join(track, "pan", "pan_test_with_labels.csv")).value)
    expect(pan.value.pairs.map((p) => [p.pairId, p.score])).toEqual([["PAN-test-1", 0.3], ["PAN-test-2", 0.7], ["PAN-test-3", 0.1]])
    expect(pan.value.pairs[0]).toMatchObject({ sentence1: "ਇੱਕ ਵਾਕ", sentence2: "ਦੂਜਾ ਵਾਕ" })
    const afr = SemRel.parseData(read(path.join(track, "afr", "afr_test_with_labels.csv")).value)
    expect(afr.value.pairs[1]).toMatchObject({ pairId: "AFR-test-2", sentence1: "Ek is hier, jy daar.", sentence2: "Ons is saam.", score: 0.2 })
    expect(errors([...pan.issues, ...afr.issues])).toEqual([])
  })

  it("an unlabelled file has no scores; bad rows are errors with their line", () => {
    const input = SemRel.parseData(read(path.join(track, "eng", "eng_test.csv")).value)
    expect(input.value.hasScores).toBe(false)
    expect(input.value.pairs.every((p) => p.score === undefined)).toBe(true)
    const bad = SemRel.parseData(text('PairID,Text,Score\nA,"x\ny",0.5\nA,"x\ny",0.6\nB,"x\ny",high\nC,"x\ny"\nD,one sentence,1.5\n', "bad.csv"))
    expect(bad.issues.map((i) => [i.severity, i.code, i.line])).toEqual([
      ["error", "duplicate-pair", 4],
      ["error", "not-a-number", 6],
      ["error", "field-count", 8],
      ["warning", "field-count", 10],
      ["warning", "out-of-scale", 10]
    ])
  })

  it("an unclosed quote is a bad-csv error naming the line", () => {
    const parsed = SemRel.parseData(text('PairID,Text,Score\nA,"x\ny",0.5\nB,"never closed,0.2\n', "broken.csv"))
    expect(parsed.issues[0]).toMatchObject({ severity: "error", code: "bad-csv", file: "broken.csv" })
    expect(parsed.issues[0].line).toBeGreaterThanOrEqual(4)
    expect(parsed.value.pairs.map((p) => p.pairId)).toEqual(["A"])
  })

  it("file names: <lang>_<split>[_with_labels].csv and pred_<lang>.csv", () => {
    expect(SemRel.parseFileName("eng_test_with_labels.csv")).toEqual({ language: "eng", split: "test", labelled: true })
    expect(SemRel.parseFileName("pan_dev.csv")).toEqual({ language: "pan", split: "dev", labelled: false })
    expect(SemRel.parseFileName("pred_afr.csv")).toEqual({ language: "afr", split: "pred", labelled: false })
    expect(SemRel.parseFileName("notes.csv")).toBeUndefined()
  })
})

describe("submissions, checked as evaluation.py does (every refusal a typed error)", () => {
  const gold = engGold()
  const check = (t: Text.TextFile) => SemRel.matchRun(t, gold, { scale: { min: 0, max: 1 } })

  it("a sound run, rows in any order, is matched by PairID into the gold's order", () => {
    const m = check(submission(["ENG-test-0004,0.7", "ENG-test-0000,0.95", "ENG-test-0002,0.5", "ENG-test-0001,0.1", "ENG-test-0003,0.45"]))
    expect(errors(m.issues)).toEqual([])
    expect(m.value.pairIds).toEqual(IDS)
    expect(Array.from(m.value.run)).toEqual([0.95, 0.1, 0.5, 0.45, 0.7])
    expect(Array.from(m.value.gold)).toEqual([0.9, 0.25, 0.5, 0.4, 0.8])
  })

  it("no header ('Your submission has no header')", () => {
    const m = check(text("ENG-test-0000,0.5\nENG-test-0001,0.5\n"))
    expect(m.issues).toEqual([expect.objectContaining({ severity: "error", code: "missing-header", file: "pred_eng.csv", line: 1, expected: "PairID,Pred_Score", found: "ENG-test-0000,0.5" })])
    expect(m.value.run).toHaveLength(0)
  })

  it("a header whose first column is not PairID, or with other than two columns ('Column format problem')", () => {
    expect(check(submission(IDS.map((id) => `${id},0.5`), "Pred_Score,PairID")).issues[0]).toMatchObject({ code: "bad-header", line: 1, found: "Pred_Score,PairID" })
    expect(check(submission(IDS.map((id) => `${id},0.5,x`), "PairID,Pred_Score,Extra")).issues[0]).toMatchObject({ code: "bad-header", line: 1 })
    // the second column's name is not checked by evaluation.py: a warning, and the run is scored
    const renamed = check(submission(IDS.map((id, i) => `${id},${i / 10}`), "pairid,score"))
    expect(renamed.issues.map((i) => [i.severity, i.code])).toEqual([["warning", "bad-header"]])
    expect(renamed.value.run).toHaveLength(5)
  })

  it("a different number of lines", () => {
    const m = check(submission(IDS.slice(0, 4).map((id) => `${id},0.5`)))
    expect(errors(m.issues).map((i) => i.code)).toEqual(["length-mismatch", "missing-pair"])
    expect(m.issues[0]).toMatchObject({ expected: "5 rows", found: "4 rows" })
    const longer = check(submission([...IDS.map((id) => `${id},0.5`), "ENG-test-0000,0.1"]))
    expect(errors(longer.issues)[0]).toMatchObject({ code: "length-mismatch", line: 7 })
  })

  it("a repeated id ('Repeated id in test data')", () => {
    const m = check(submission(["ENG-test-0000,0.1", "ENG-test-0001,0.2", "ENG-test-0001,0.3", "ENG-test-0003,0.4", "ENG-test-0004,0.5"]))
    expect(errors(m.issues).map((i) => [i.code, i.line, i.found])).toEqual([
      ["duplicate-pair", 4, "ENG-test-0001"],
      ["missing-pair", undefined, "4 of 5 pairs predicted"]
    ])
    expect(m.value.run).toHaveLength(0)
  })

  it("an unknown id ('Invalid pair id')", () => {
    const m = check(submission(["ENG-test-0000,0.1", "ENG-test-0001,0.2", "ENG-test-9999,0.3", "ENG-test-0003,0.4", "ENG-test-0004,0.5"]))
    expect(errors(m.issues)[0]).toMatchObject({ code: "unknown-pair", line: 4, field: "PairID", found: "ENG-test-9999" })
  })

  it("unlike evaluation.py, a NaN, empty or non-numeric prediction is an error too (it reported a NaN Spearman)", () => {
    const m = check(submission(["ENG-test-0000,NaN", "ENG-test-0001,", "ENG-test-0002,0.5", "ENG-test-0003,about half", "ENG-test-0004,inf"]))
    expect(errors(m.issues).map((i) => [i.code, i.line, i.field])).toEqual([
      ["non-finite", 2, "Pred_Score"],
      ["empty-value", 3, "Pred_Score"],
      ["not-a-number", 5, "Pred_Score"],
      ["non-finite", 6, "Pred_Score"]
    ])
    expect(m.value.run).toHaveLength(0)
  })

  it("a row with other than two fields is an error (pandas stops on it); predictions outside 0-1 a warning", () => {
    expect(errors(check(submission(["ENG-test-0000,0.1,extra", ...IDS.slice(1).map((id) => `${id},0.5`)])).issues)[0]).toMatchObject({ code: "field-count", line: 2 })
    const outside = check(submission(IDS.map((id, i) => `${id},${i}`)))
    expect(outside.issues.map((i) => [i.severity, i.code, i.line])).toEqual([["warning", "out-of-scale", 4]])
  })

  it("writeRun writes what parseRun reads back", () => {
    const written = SemRel.writeRun([{ pairId: "ENG-test-0000", score: 0.125 }, { pairId: 'odd,"id"', score: 1 / 3 }])
    expect(written.split("\n")[0]).toBe("PairID,Pred_Score")
    const back = SemRel.parseRun(text(written))
    expect(back.issues).toEqual([])
    expect(back.value.predictions.map((p) => [p.pairId, p.score])).toEqual([["ENG-test-0000", 0.125], ['odd,"id"', 1 / 3]])
  })
})

describe("gold of a SemRel edition", () => {
  const b = Registry.get("semrel2024-b")!
  const edition: Registry.TaskEdition = { ...b, datasets: b.datasets.filter((d) => ["afr", "eng", "esp", "pan"].includes(d.name)) }

  it("--gold = the track folder: <lang>/<lang>_test_with_labels.csv, pair IDs kept; esp listed with the reason", async () => {
    const gold = await run(Gold.loadGold(edition, track))
    expect(gold.datasets.map((d) => d.name)).toEqual(["afr", "eng", "pan"])
    const eng = gold.datasets[1]
    if (eng.kind !== "scores") throw new Error("scores expected")
    expect(eng.pairIds).toEqual(IDS)
    expect(Array.from(eng.scores)).toEqual([0.9, 0.25, 0.5, 0.4, 0.8])
    expect(gold.missing).toEqual(["esp"])
    const esp = gold.issues.find((i) => i.field === "esp")!
    expect(esp).toMatchObject({ severity: "warning", code: "not-public" })
    expect(esp.message).toMatch(/did not release the Spanish \(esp\) test labels/)
    expect(errors(gold.issues)).toEqual([])
  })

  it("--gold = one labelled csv: that language only; an unlabelled csv is refused as gold", async () => {
    const one = await run(Gold.loadGold(edition, path.join(track, "pan", "pan_test_with_labels.csv")))
    expect(one.datasets.map((d) => d.name)).toEqual(["pan"])
    const input = Gold.parseDataset(edition, edition.datasets.find((d) => d.name === "eng")!, "eng_test.csv", fs.readFileSync(path.join(track, "eng", "eng_test.csv")))
    expect(errors(input.issues)[0]).toMatchObject({ code: "missing-header", field: "Score" })
  })

  it("a flat folder of labelled csvs (as a scoring site holds them) works too", async () => {
    const flat = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-semrel-"))
    try {
      fs.copyFileSync(path.join(track, "eng", "eng_test_with_labels.csv"), path.join(flat, "eng_test_with_labels.csv"))
      const gold = await run(Gold.loadGold(edition, flat))
      expect(gold.datasets.map((d) => d.name)).toEqual(["eng"])
    } finally {
      fs.rmSync(flat, { recursive: true, force: true })
    }
  })
})

describe("a SemRel run: a folder or zip of pred_<lang>.csv for any subset of the languages", () => {
  it("discover finds both, and each file belongs to its language's dataset", async () => {
    const b = Registry.get("semrel2024-b")!
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-semrel-runs-"))
    try {
      fs.mkdirSync(path.join(dir, "TeamA_run1"))
      fs.writeFileSync(path.join(dir, "TeamA_run1", "pred_eng.csv"), "PairID,Pred_Score\nENG-test-0000,0.5\n")
      fs.writeFileSync(path.join(dir, "TeamA_run1", "pred_pan.csv"), "PairID,Pred_Score\nPAN-test-1,0.5\n")
      const enc = new TextEncoder()
      fs.writeFileSync(path.join(dir, "TeamB_run2.zip"), zipSync({ "res/pred_afr.csv": enc.encode("PairID,Pred_Score\nAFR-test-1,0.5\n") }))
      const found = await run(Submissions.discover(dir, b))
      expect(found.issues).toEqual([])
      expect(found.runs.map((r) => [r.meta.id, r.kind, r.files.map((f) => f.name)])).toEqual([
        ["TeamA/run1", "folder", ["pred_eng.csv", "pred_pan.csv"]],
        ["TeamB/run2", "zip", ["pred_afr.csv"]]
      ])
      for (const r of found.runs) for (const f of r.files) expect(Registry.datasetOfRunFile(b, f.name)?.name).toBe(SemRel.parseFileName(f.name)!.language)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

// ------------------------------------------------------------------------------------------------
// ../shared: the release and the official figures
// ------------------------------------------------------------------------------------------------

const semrelFiles = hasShared
  ? fs
      .readdirSync(path.join(shared, "data", "semrel2024"), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith(".csv"))
      .map((e) => path.relative(path.join(shared, "data", "semrel2024"), path.join(e.parentPath, e.name)))
      .sort()
  : []

describe.skipIf(!hasShared)("every SemRel csv of ../shared/data/semrel2024", () => {
  it("finds the 140 files of the three tracks", () => {
    expect(semrelFiles).toHaveLength(140)
  })
  it.each(semrelFiles)("%s: no errors, every Text split in two", (rel) => {
    const t = read(path.join(shared, "data", "semrel2024", rel))
    const parsed = SemRel.parseData(t.value)
    expect(errors([...t.issues, ...parsed.issues]).map(Issue.format)).toEqual([])
    expect(parsed.issues.filter((i) => i.code === "field-count")).toEqual([])
    expect(parsed.value.pairs.length).toBeGreaterThan(0)
    // test files: labelled exactly when named so (some dev files without the suffix carry scores: ind, pan)
    const name = SemRel.parseFileName(path.basename(rel))!
    if (name.split === "test") expect(parsed.value.hasScores).toBe(name.labelled)
  })
})

const referenceRows = (): Array<{ run: string; lang: string; spearman: number }> =>
  tsvRows(path.join(shared, "reference", "semrel2024-synthetic-runs.official.tsv")).map(([run, lang, spearman]) => ({ run, lang, spearman: Number(spearman) }))

describe.skipIf(!hasShared)("official evaluation.py figures of ../shared/data/runs/semrel2024-synthetic", () => {
  const rows = hasShared ? referenceRows() : []
  it("the reference has the twelve runs", () => {
    expect(rows).toHaveLength(12)
  })
  it.each(rows)("$run: Spearman $spearman to 1e-9", ({ run: name, lang, spearman }) => {
    const trackDir = name.slice(0, "track-a".length)
    const goldText = read(path.join(shared, "data", "semrel2024", trackDir, lang, `${lang}_test_with_labels.csv`))
    const goldData = SemRel.parseData(goldText.value).value
    const gold: SemRel.GoldPairs = { file: goldText.value.file, pairIds: goldData.pairs.map((p) => p.pairId), scores: Float64Array.from(goldData.pairs, (p) => p.score!) }
    const m = SemRel.matchRun(read(path.join(shared, "data", "runs", "semrel2024-synthetic", name, `pred_${lang}.csv`)).value, gold)
    expect(errors(m.issues)).toEqual([])
    const rho = Spearman.spearman(m.value.gold, m.value.run)
    if (rho._tag !== "Defined") throw new Error(rho.reason)
    expect(Math.abs(rho.value - spearman)).toBeLessThan(1e-9)
    // Pearson is reported beside it; it is defined on these runs
    expect(Pearson.pearson(m.value.gold, m.value.run)._tag).toBe("Defined")
  })
})
