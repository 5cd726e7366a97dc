import fc from "fast-check"
import { describe, expect, it } from "vitest"
import type { ScoredRun } from "@stseval/scoring";
import { ResultJson } from "@stseval/scoring"
import { goldOf, scoreRun, sickEdition, sickGold, submission } from "./helpers.js"

const LABELS = ["ENTAILMENT", "CONTRADICTION", "NEUTRAL"] as const

describe("SICK runs are matched by pair_ID: row order and column order do not matter", () => {
  it("any permutation of rows and of the three columns gives the same figures", () => {
    const pair = fc.record({ gold: fc.integer({ min: 10, max: 50 }), run: fc.integer({ min: 10, max: 50 }), g: fc.constantFrom(...LABELS), r: fc.constantFrom(...LABELS) })
    fc.assert(
      fc.property(fc.array(pair, { minLength: 3, maxLength: 25 }), fc.func(fc.integer()), fc.constantFrom(0, 1, 2, 3, 4, 5), (pairs, key, perm) => {
        const edition = sickEdition()
        const gold = goldOf(edition, { relatedness: sickGold(pairs.map((p, i) => [i + 1, p.gold / 10, p.g] as const)) })
        const cols = [
          ["pair_ID", "relatedness_score", "entailment_judgment"],
          ["pair_ID", "entailment_judgment", "relatedness_score"],
          ["relatedness_score", "pair_ID", "entailment_judgment"],
          ["relatedness_score", "entailment_judgment", "pair_ID"],
          ["entailment_judgment", "pair_ID", "relatedness_score"],
          ["entailment_judgment", "relatedness_score", "pair_ID"]
        ][perm]
        const rows = pairs.map((p, i) => ({ pair_ID: String(i + 1), relatedness_score: String(p.run / 10), entailment_judgment: p.r }))
        const text = (rs: typeof rows, cs: ReadonlyArray<string>) =>
          `${cs.join("\t")}\n${rs.map((r) => cs.map((c) => r[c as keyof typeof r]).join("\t")).join("\n")}\n`
        const base = scoreRun(edition, gold, submission({ "T_run1primary.txt": text(rows, ["pair_ID", "relatedness_score", "entailment_judgment"]) }))
        const shuffled = [...rows].sort((a, b) => key(a.pair_ID) - key(b.pair_ID) || Number(a.pair_ID) - Number(b.pair_ID))
        const other = scoreRun(edition, gold, submission({ "T_run1primary.txt": text(shuffled, cols) }))
        // the figures, and the aligned scores (a run in the gold's order is aligned without an index by pair ID)
        const strip = (r: ScoredRun.ScoredRun) => {
          const j = ResultJson.toJson(r)
          const aligned = r.datasets.find((d) => d.dataset === "relatedness")?.aligned
          const scores = aligned?.kind === "scores" ? aligned : undefined
          return { datasets: j.datasets, official: j.official, errors: j.errors, run: scores && Array.from(scores.run), gold: scores && Array.from(scores.gold) }
        }
        expect(strip(other)).toEqual(strip(base))
        expect(base.datasets.map((d) => d.status)).toEqual(["scored", "scored"])
      })
    )
  })
})
