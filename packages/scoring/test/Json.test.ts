import * as fs from "node:fs"
import * as path from "node:path"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Rank, ResultJson, ResultSchema, Signature } from "@stseval/scoring"
import { goldOf, lines, repoRoot, scoreRun, sickEdition, sickGold, submission, toyEdition } from "./helpers.js"

const edition = toyEdition()
const gold = goldOf(edition, { a: lines([1, "", 3, 4, 2]), b: lines([1, 2, 3]) })
const good = scoreRun(edition, gold, submission({ "STS.output.a.txt": lines([1, 9, 2, 4, 3]), "STS.output.b.txt": lines([3, 3, 3]) }))
const failed = scoreRun(edition, gold, submission({ "README.md": "x\n" }, { team: "Other" }))
const sicks = sickEdition()
const sicksGold = goldOf(sicks, { relatedness: sickGold([[1, 4.5, "ENTAILMENT"], [2, 3, "NEUTRAL"], [3, 1.5, "CONTRADICTION"]]) })
const sick = scoreRun(
  sicks,
  sicksGold,
  submission({ "T_run1primary.txt": "pair_ID\tentailment_judgment\trelatedness_score\n1\tENTAILMENT\t4\n2\tNEUTRAL\tNA\n3\tNEUTRAL\t1\n" })
)
const decode = Schema.decodeUnknownSync(ResultSchema.ScoredResults)

describe("Json", () => {
  it("toJson output of scored, failed and SICK runs conforms to the ScoredResults schema (through a JSON round trip)", () => {
    const doc = ResultJson.resultsToJson({
      edition,
      signature: Signature.make(edition, gold),
      goldPath: "gold",
      gold,
      issues: [],
      runs: [good, failed],
      ranked: Rank.rank([good, failed])
    })
    const text = JSON.stringify(doc)
    expect(() => decode(JSON.parse(text))).not.toThrow()
    expect(() => decode(JSON.parse(JSON.stringify(ResultJson.resultsToJson({ edition: sicks, signature: Signature.make(sicks, sicksGold), goldPath: undefined, gold: sicksGold, issues: [], runs: [sick] }))))).not.toThrow()
  })

  it("uses the documented field names, null + `undefined` reasons, full-precision numbers", () => {
    const j = ResultJson.toJson(good)
    expect(Object.keys(j.datasets)).toEqual(["a", "b"])
    expect(j.datasets["a"].figures["pearson"]).toBeCloseTo(0.8, 14)
    expect(j.datasets["b"].figures["pearson"]).toBeNull()
    expect(j.datasets["b"].undefined!["pearson"]).toBe("the run is constant")
    expect(j.official[0]).toMatchObject({ ranking: "official", metric: "pearson", rule: "wmean", direction: "higher" })
    expect(j.official[0].value).toBeCloseTo((0.8 * 4) / 7, 14)
    expect(j.official[0].zeroed).toEqual([{ dataset: "b", reason: "Pearson is undefined (the run is constant)" }])
    expect(j.aggregates["official"].wmean!.metric).toBe("pearson")
    const s = ResultJson.toJson(sick)
    // relatedness has an NA value on one line -> not scored; entailment 2 of 3 correct
    expect(s.datasets["relatedness"].status).toBe("not-scored")
    expect(s.datasets["relatedness"].figures["pearson"]).toBeNull()
    expect(s.datasets["entailment"].figures["accuracy"]).toBeCloseTo(200 / 3, 12)
    expect(s.datasets["entailment"].labels!.correct).toBe(2)
    expect(s.errors.map((i) => i.code)).toEqual(["not-a-number"])
    const f = ResultJson.toJson(failed)
    expect(f.status).toBe("failed")
    expect(f.failure).toMatch(/no file of the run matches a dataset of toy/)
    expect(f.warnings.map((i) => i.code)).toContain("unknown-file")
  })

  it("docs/schemas/scored-results.schema.json is the schema generated from ResultSchema.ScoredResults", () => {
    const file = path.join(repoRoot, "docs/schemas/scored-results.schema.json")
    const generated = `${JSON.stringify(ResultSchema.jsonSchema(), null, 2)}\n`
    if (process.env["UPDATE_SCHEMA"] === "1") fs.writeFileSync(file, generated)
    expect(fs.readFileSync(file, "utf8")).toBe(generated)
  })
})

describe("Signature", () => {
  it("names the edition, hashes its definition and the gold, the aggregate rule and the engine version", () => {
    const s = Signature.make(edition, gold)
    expect(s.text).toMatch(/^toy@[0-9a-f]{8}\|gold:[0-9a-f]{8}\|agg:wmean\|stseval-scoring@\d+\.\d+\.\d+$/)
    expect(s.text).toBe(`${s.edition}@${s.editionHash}|gold:${s.goldHash}|agg:${s.aggregate}|${s.engine}`)
    // the same gold read again gives the same signature; any changed score or rule changes it
    expect(Signature.make(edition, goldOf(edition, { a: lines([1, "", 3, 4, 2]), b: lines([1, 2, 3]) })).text).toBe(s.text)
    expect(Signature.make(edition, goldOf(edition, { a: lines([1, "", 3, 4, 2.5]), b: lines([1, 2, 3]) })).goldHash).not.toBe(s.goldHash)
    expect(Signature.make(toyEdition({ missingDataset: "no-official-score" }), gold).editionHash).not.toBe(s.editionHash)
    expect(Signature.make(toyEdition({ ranking: [{ subtask: "similarity", metric: "pearson", aggregate: "mean" }] }), gold).aggregate).toBe("mean")
  })

  it("VERSION is the package's version", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(repoRoot, "packages/scoring/package.json"), "utf8")) as { version: string }
    expect(Signature.VERSION).toBe(pkg.version)
  })

  it("VERSION has one source, the package.json (no version written in the sources: a release cannot leave one behind)", () => {
    const sources = fs.readdirSync(path.join(repoRoot, "packages/scoring/src"), { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".ts"))
    for (const f of sources) expect(fs.readFileSync(path.join(repoRoot, "packages/scoring/src", f), "utf8"), f).not.toMatch(/VERSION\s*=\s*"\d/)
  })

  it("the scored-results JSON carries the signature", () => {
    const doc = ResultJson.resultsToJson({ edition, signature: Signature.make(edition, gold), goldPath: "gold", gold, issues: [], runs: [good] })
    expect(doc.signature.text).toBe(Signature.make(edition, gold).text)
  })
})
