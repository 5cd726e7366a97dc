import { describe, expect, it } from "vitest"
import { Run } from "@stseval/baselines"
import { Sick, Sts, Text } from "@stseval/formats"

describe("toRun: the task's own submission format", () => {
  it("SICK: one file named Team_runNprimary.txt that the run parser reads back", () => {
    const [file, ...rest] = Run.toRun(
      {
        _tag: "sick",
        rows: [
          { pairId: "6", entailment: "NEUTRAL", relatedness: 0.25 },
          { pairId: "10", entailment: "ENTAILMENT", relatedness: 10 / 11 }
        ]
      },
      { team: "overlap" }
    )
    expect(rest).toEqual([])
    expect(file.path).toBe("overlap_run1primary.txt")
    expect(file.contents).toBe("pair_ID\tentailment_judgment\trelatedness_score\n6\tNEUTRAL\t0.25\n10\tENTAILMENT\t0.9090909090909091\n")
    const parsed = Sick.parseRun(Text.fromString(file.contents, file.path).value)
    expect(parsed.issues.filter((i) => i.severity === "error")).toEqual([])
    expect(parsed.value.rows.map((r) => r.relatedness)).toEqual([0.25, 10 / 11])
  })
  it("SICK: an entailment-only baseline writes NA for relatedness", () => {
    const [file] = Run.toRun({ _tag: "sick", rows: [{ pairId: "1", entailment: "NEUTRAL" }] }, { run: 2, primary: false })
    expect(file).toEqual({ path: "baseline_run2.txt", contents: "pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\tNA\n" })
    expect(Sick.parseRun(Text.fromString(file.contents, file.path).value).value.relatedness).toBe("na")
  })
  it("STS: one STS.output.<dataset>.txt per dataset, one score per line", () => {
    const files = Run.toRun({
      _tag: "sts",
      datasets: [
        { dataset: "track5.en-en", scores: [0.5, 1] },
        { dataset: "track1.ar-ar", scores: Float64Array.of(0) }
      ]
    })
    expect(files).toEqual([
      { path: "baseline_run1primary/STS.output.track5.en-en.txt", contents: "0.5\n1\n" },
      { path: "baseline_run1primary/STS.output.track1.ar-ar.txt", contents: "0\n" }
    ])
    expect([...Sts.parseOutput(Text.fromString(files[0].contents, files[0].path).value).value.scores]).toEqual([0.5, 1])
  })
  it("names datasets and languages from STS file names", () => {
    expect(Run.datasetOf("STS.input.track4a.es-en.txt")).toBe("track4a.es-en")
    expect(Run.datasetOf("STS.input.headlines.txt")).toBe("headlines")
    expect(Run.datasetOf("notes.txt")).toBeUndefined()
    expect(Run.languagesOf("track4a.es-en")).toEqual(["es", "en"])
    expect(Run.languagesOf("headlines")).toBeUndefined()
  })
})
