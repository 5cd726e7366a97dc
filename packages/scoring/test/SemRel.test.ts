/**
 * SemEval-2024 Task 1 (SemRel) and GLUE STS-B runs through the scoring engine: runs matched to the
 * gold by PairID, Spearman as the official figure of each language (checked against a plain
 * average-rank Spearman written here), one ranking per language from the single `Rank.rank`, the
 * mean over languages only labelled unofficial and never over a language without a public gold,
 * every refusal of the organisers' evaluation.py an error with no figure; a GLUE `STS-B.tsv`
 * scores like the same scores given as a plain run.
 */
import { describe, expect, it } from "vitest"
import { Aligned, Rank, ResultJson } from "@stseval/scoring"
import { goldOf, scoreRun, semrelToyEdition, submission, toyEdition } from "./helpers.js"
import { pearson, spearman } from "@stseval/vitest-config/reference"

// A SemRel-shaped edition: three languages, esp without a public gold (as in the registry).
const edition = semrelToyEdition()

const goldEng = { E1: 0.1, E2: 0.5, E3: 0.9, E4: 0.3, E5: 0.7, E6: 0.5 }
const goldAmh = { A1: 0.2, A2: 0.8, A3: 0.4, A4: 0.6 }
const csv = (rows: Record<string, number>) => `PairID,Text,Score\n${Object.entries(rows).map(([id, s]) => `${id},"first\nsecond",${s}\n`).join("")}`
const gold = goldOf(edition, { eng: csv(goldEng), amh: csv(goldAmh) })
const pred = (rows: ReadonlyArray<readonly [string, number | string]>) => `PairID,Pred_Score\n${rows.map(([id, s]) => `${id},${s}\n`).join("")}`

const figure = (m: { _tag: string; value?: number }) => (m._tag === "Defined" ? m.value : undefined)
const score = (files: Record<string, string>, team = "Team") => scoreRun(edition, gold, submission(files, { team, id: `${team}/run1` }))

describe("SemRel runs matched by PairID", () => {
  // the run lists the pairs in another order than the gold: matching is by PairID
  const engRun: ReadonlyArray<readonly [string, number]> = [["E6", 0.4], ["E3", 0.8], ["E1", 0.3], ["E5", 0.6], ["E2", 0.4], ["E4", 0.1]]
  const amhRun: ReadonlyArray<readonly [string, number]> = [["A4", 0.9], ["A1", 0.1], ["A3", 0.2], ["A2", 0.5]]

  it("Spearman per language (official) and Pearson, as evaluation.py pairs them; esp listed with its reason, never counted", () => {
    const run = score({ "pred_eng.csv": pred(engRun), "pred_amh.csv": pred(amhRun), "pred_esp.csv": pred([["S1", 0.5]]) })
    expect(run.status).toBe("scored")
    expect(run.errors).toEqual([])
    const eng = run.datasets.find((d) => d.dataset === "eng")!
    const byId = new Map(engRun)
    const ids = Object.keys(goldEng)
    const x = ids.map((id) => byId.get(id)!)
    const y = Object.values(goldEng)
    expect(figure(eng.figures.spearman)).toBeCloseTo(spearman(x, y), 12)
    expect(figure(eng.figures.pearson)).toBeCloseTo(pearson(x, y), 12)
    const esp = run.datasets.find((d) => d.dataset === "esp")!
    expect(esp).toMatchObject({ status: "no-gold", reason: "the organisers did not release the esp test labels" })
    expect(run.infos.map((i) => i.code)).toContain("not-public")
    // one official figure per language with a gold, Spearman
    expect(run.official.map((o) => [o.ranking, o.metric])).toEqual([["eng", "spearman"], ["amh", "spearman"]])
    // the mean over the languages with a gold, labelled unofficial; no `official` aggregate
    const amhRho = spearman(Object.keys(goldAmh).map((id) => new Map(amhRun).get(id)!), Object.values(goldAmh))
    expect(figure(run.aggregates["official"].mean!.value)).toBeCloseTo((spearman(x, y) + amhRho) / 2, 12)
    expect(run.aggregates["official"].mean!.unofficial).toMatch(/not an official figure/)
    expect(run.official.map((o) => o.rule)).toEqual(["dataset", "dataset"])
    const json = ResultJson.toJson(run)
    expect(json.datasets["eng"].figures["spearman"]).toBeCloseTo(spearman(x, y), 12)
    expect(json.datasets["esp"].status).toBe("no-gold")
    expect(json.aggregates["official"].mean!.unofficial).toMatch(/not an official figure/)
  })

  it("a run may enter any subset of the languages: the others are not held against it, but it gets no mean", () => {
    const run = score({ "pred_eng.csv": pred(engRun) })
    expect(run.status).toBe("scored")
    expect(run.errors).toEqual([])
    expect(run.warnings).toEqual([])
    expect(run.datasets.find((d) => d.dataset === "amh")!.status).toBe("missing")
    expect(run.aggregates["official"].mean!.value).toMatchObject({ _tag: "Undefined" })
    expect((run.aggregates["official"].mean!.value as { reason: string }).reason).toMatch(/amh has no figure/)
    expect((run.aggregates["official"].mean!.value as { reason: string }).reason).not.toMatch(/esp/)
  })

  it("the single rank gives one ranking per language; teams are ranked in each on its own", () => {
    const a = score({ "pred_eng.csv": pred(engRun), "pred_amh.csv": pred(amhRun) }, "A")
    // B: eng perfectly ordered, no amh
    const b = score({ "pred_eng.csv": pred(Object.entries(goldEng).map(([id, s]) => [id, s])) }, "B")
    const ranked = Rank.rank([a, b])
    expect(ranked.rankings.map((r) => [r.ranking, r.metric])).toEqual([["eng", "spearman"], ["amh", "spearman"]])
    const eng = ranked.rankings[0].entries
    expect(eng.map((e) => [e.rank, e.meta.team])).toEqual([[1, "B"], [2, "A"]])
    const amh = ranked.rankings[1].entries
    expect(amh.map((e) => [e.rank, e.meta.team])).toEqual([[1, "A"], [undefined, "B"]])
    expect(amh[1].reason).toMatch(/no amh figure/)
  })

  it("significance inputs (Aligned): esp is left out, not held against the runs; no runs is a reason, not a crash", () => {
    const a = score({ "pred_eng.csv": pred(engRun), "pred_amh.csv": pred(amhRun) }, "A")
    const b = score({ "pred_eng.csv": pred(engRun), "pred_amh.csv": pred(amhRun) }, "B")
    const both = Aligned.datasets(edition, [a, b])
    expect(both.datasets.map((d) => d.name)).toEqual(["eng", "amh"])
    expect(both.skipped).toEqual([])
    expect(Aligned.datasets(edition, [], { only: "eng" })).toEqual({ metric: "spearman", datasets: [], skipped: [{ dataset: "eng", reason: "no run to compare" }] })
  })

  describe("every submission evaluation.py refuses: an error, no figure for that language, the reason", () => {
    const cases: ReadonlyArray<readonly [string, string, string]> = [
      ["no header", "E1,0.1\nE2,0.5\nE3,0.9\nE4,0.3\nE5,0.7\nE6,0.5\n", "missing-header"],
      ["a different number of lines", pred(engRun.slice(0, 5)), "length-mismatch"],
      ["a repeated id", pred([...engRun.slice(0, 5), ["E1", 0.2]]), "duplicate-pair"],
      ["an unknown id", pred([...engRun.slice(0, 5), ["X9", 0.2]]), "unknown-pair"],
      ["a NaN prediction (evaluation.py gave a NaN score)", pred([...engRun.slice(0, 5), ["E4", "nan"]]), "non-finite"],
      ["an empty prediction", pred([...engRun.slice(0, 5), ["E4", ""]]), "empty-value"]
    ]
    for (const [what, text, code] of cases) {
      it(what, () => {
        const run = score({ "pred_eng.csv": text, "pred_amh.csv": pred(amhRun) })
        const eng = run.datasets.find((d) => d.dataset === "eng")!
        expect(eng.status).toBe("not-scored")
        expect(eng.figures.spearman).toMatchObject({ _tag: "Undefined" })
        // the reason is the error itself: the renderers already say the dataset is not scored
        expect(eng.reason).not.toMatch(/^eng is not scored/)
        expect(run.errors.some((e) => eng.reason!.includes(e.message))).toBe(true)
        expect(run.errors.map((e) => e.code)).toContain(code)
        expect(run.errors.every((e) => e.file.endsWith("pred_eng.csv"))).toBe(true)
        // the other language is still scored and ranked
        expect(run.datasets.find((d) => d.dataset === "amh")!.status).toBe("scored")
        expect(run.official.find((o) => o.ranking === "eng")!.value._tag).toBe("Undefined")
      })
    }
  })
})

describe("GLUE STS-B.tsv as an STS-B run", () => {
  const stsb = toyEdition({
    id: "stsb-toy",
    title: "STS-B-like toy edition",
    family: "sts",
    scale: { min: 0, max: 5 },
    submission: "file",
    datasets: [{ name: "test", gold: "sts-test.csv", goldFormat: "stsb-csv", run: "sts-test.output.txt" }],
    runLimit: 1,
    ranking: [{ subtask: "similarity", metric: "pearson", aggregate: "single", report: ["pearson", "spearman"] }],
    missingDataset: "no-official-score",
    published: { style: "r100" }
  })
  const goldScores = [2.5, 3.6, 5, 0.4, 1.2]
  const goldCsv = goldScores.map((s, i) => `main-captions\tMSRvid\t2012test\t${i}\t${s}\tA sentence.\tAnother sentence.\n`).join("")
  const g = goldOf(stsb, { test: goldCsv })
  const scores = [2.1, 3.0, 4.4, 1.5, 1.1]
  const plain = scoreRun(stsb, g, submission({ "sts-test.output.txt": scores.map((s) => `${s}\n`).join("") }))
  // GLUE rows given out of order: index says which test row each is
  const order = [3, 0, 4, 1, 2]
  const glueText = `index\tprediction\n${order.map((i) => `${i}\t${scores[i]}\n`).join("")}`

  it("scores exactly like the same scores given as a plain run", () => {
    const glue = scoreRun(stsb, g, submission({ "STS-B.tsv": glueText }))
    expect(plain.status).toBe("scored")
    expect(glue.status).toBe("scored")
    expect(glue.errors).toEqual([])
    expect(figure(glue.datasets[0].figures.pearson)).toBe(figure(plain.datasets[0].figures.pearson))
    expect(figure(glue.datasets[0].figures.spearman)).toBe(figure(plain.datasets[0].figures.spearman))
    expect(figure(glue.datasets[0].figures.pearson)).toBeCloseTo(pearson(scores, goldScores), 12)
    expect(glue.official[0].value).toEqual(plain.official[0].value)
  })

  it("what the GLUE server refuses (a value outside 0-5, a missing row) is an error with its line", () => {
    const bad = scoreRun(stsb, g, submission({ "STS-B.tsv": glueText.replace("\t4.4\n", "\t5.5\n") }))
    expect(bad.status).toBe("failed")
    expect(bad.errors[0]).toMatchObject({ code: "out-of-scale", line: 6 })
    const short = scoreRun(stsb, g, submission({ "STS-B.tsv": glueText.split("\n").slice(0, 5).join("\n") }))
    expect(short.errors.map((e) => e.code)).toContain("missing-pair")
  })
})
