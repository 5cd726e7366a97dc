/**
 * The repository's own example (examples/sick2014): real SICK-test runs renamed to the task's
 * convention, ranked with `Engine.score`. Expected figures are the official R scorer's (see
 * ../shared/reference/sick-posttask-runs.official-R.tsv and sick-test.overlap-baseline.official-R.txt),
 * so this checks the engine end to end without ../shared.
 */
import * as path from "node:path"
import { Effect } from "effect"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { describe, expect, it } from "vitest"
import { MetricValue } from "@stseval/metrics"
import { Engine } from "@stseval/scoring"
import { repoRoot } from "./helpers.js"

const example = path.join(repoRoot, "examples/sick2014")

describe("examples/sick2014 ranked end to end", () => {
  it("ranks the primary runs in both subtasks with the official R figures", async () => {
    const results = await Effect.runPromise(
      Engine.score({ task: "sick2014", gold: path.join(example, "SICK_test_annotated.txt"), folder: path.join(example, "submissions") }).pipe(
        Effect.provide(NodeServices.layer)
      )
    )
    const [relatedness, entailment] = results.ranked.rankings
    const row = (e: (typeof relatedness.entries)[number]) => [e.rank, e.meta.team, MetricValue.getOrNaN(e.value)]
    // R: The Meaning Factory r 0.826381603887488, Insight_w2v_wiki 0.665939453734153, baseline 0.627010732001107
    const rel = relatedness.entries.map(row)
    expect(rel.map((r) => [r[0], r[1]])).toEqual([
      [1, "MeaningFactory"],
      [2, "Insight"],
      [3, "Baseline-overlap"]
    ])
    expect(rel[0][2]).toBeCloseTo(0.826381603887488, 12)
    expect(rel[1][2]).toBeCloseTo(0.665939453734153, 12)
    expect(rel[2][2]).toBeCloseTo(0.627010732001107, 12)
    // R: 79.6427846559773 and 56.1599350517556; Insight took no part in entailment (NA)
    const ent = entailment.entries
    expect(ent.map((e) => [e.rank, e.meta.team])).toEqual([
      [1, "MeaningFactory"],
      [2, "Baseline-overlap"],
      [undefined, "Insight"]
    ])
    expect(MetricValue.getOrNaN(ent[0].value)).toBeCloseTo(79.6427846559773, 10)
    expect(MetricValue.getOrNaN(ent[1].value)).toBeCloseTo(56.1599350517556, 10)
    expect(ent[2].reason).toMatch(/NA/)
    // the non-primary runs are scored too: run2 of Insight is malformed; run2 of MeaningFactory has no
    // header, which the official scorer rejects (no score in ../shared/reference/sick-posttask-runs.official-R.tsv)
    expect(results.ranked.excluded).toBe(2)
    const insight2 = results.runs.find((r) => r.meta.id === "Insight/run2")!
    expect(insight2.status).toBe("failed")
    expect(insight2.errors[0].code).toBe("field-count")
    const mf2 = results.runs.find((r) => r.meta.id === "MeaningFactory/run2")!
    expect(mf2.status).toBe("failed")
    expect(mf2.errors.map((i) => i.code)).toContain("missing-header")
  })
})
