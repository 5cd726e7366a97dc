import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { Baseline, Embeddings, Run } from "@stseval/baselines"
import { Formats, Registry } from "@stseval/formats"
import { fixtures, hasShared, readSick, shared, skipNote } from "./helpers.js"

describe("Baseline catalogue", () => {
  it("lists every baseline once, each with a family", () => {
    const names = Baseline.catalogue.map((e) => e.name)
    expect(new Set(names).size).toBe(names.length)
    expect(Baseline.get("overlap")?.family).toBe("sick")
    expect(Baseline.get("tokencos")?.family).toBe("sts")
    expect(Baseline.get("nope")).toBeUndefined()
  })
  it("SICK: overlap gives both subtasks, entailment baselines write NA relatedness", () => {
    const pairs = readSick(path.join(fixtures, "sick-mini.txt"))
    const overlap = Baseline.sick("overlap", pairs)
    expect(overlap.notes[0]).toMatch(/\(a man is\)/)
    const [file] = Run.toRun(overlap.run)
    expect(file.contents.split("\n")[3]).toBe("3\tNEUTRAL\t0.5")
    const majority = Baseline.sick("majority", pairs, { train: pairs })
    // the fixture's gold holds NEUTRAL on 2 of 4 pairs
    expect(majority.notes).toContain("expected accuracy on this input's gold: 50.00%")
    expect(Run.toRun(majority.run)[0].contents.split("\n")[1]).toBe("1\tNEUTRAL\tNA")
    expect(() => Baseline.sick("probability", pairs)).toThrow(/needs training pairs/)
    expect(() => Baseline.sick("tokencos", pairs)).toThrow(/not a SICK baseline/)
  })
  it("STS: token cosine per dataset, embeddings with a vectors file, STS-B as one file", () => {
    const datasets = [{ dataset: "track4a.es-en", pairs: [{ sentence1: "Hola.", sentence2: "hola" }], languages: ["es", "en"] as const }]
    const made = Baseline.sts("tokencos", datasets)
    // {hola, .} vs {hola}: 1 / sqrt(2)
    expect(made.run._tag === "sts" && made.run.datasets[0].scores[0]).toBeCloseTo(1 / Math.sqrt(2), 15)
    expect(made.notes[0]).toMatch(/^track4a\.es-en: cross-lingual es-en/)
    const vectors = Embeddings.fromLines("mem", ["hola 1 2"], new Set(["hola"]))
    const emb = Baseline.sts("embeddings", datasets, { vectors, shape: "stsb" })
    expect(emb.run).toEqual({ _tag: "stsb", scores: Float64Array.of(1) })
    expect(() => Baseline.sts("embeddings", datasets)).toThrow(/vectors file/)
  })
})

skipNote("Baseline shared-data suite")
describe.skipIf(!hasShared)("the overlap run written by toRun matches the released file", () => {
  it("same lines, numbers written as the shortest round-trip decimal (Python wrote 1.0 / 0.0)", () => {
    const made = Baseline.sick("overlap", readSick(path.join(shared, "data/sick2014/SICK_test.txt")))
    const ours = Run.toRun(made.run)[0].contents.split("\n")
    const released = fs.readFileSync(path.join(shared, "reference/sick-test.overlap-baseline.txt"), "utf8").split("\n")
    expect(ours.length).toBe(released.length)
    const pythonFloat = (line: string) => line.replace(/\t(\d+)$/, "\t$1.0")
    ours.forEach((line, i) => expect(i === 0 ? line : pythonFloat(line)).toBe(released[i]))
  })
})

describe("the run a baseline writes is the format descriptor's, never its name", () => {
  it("each built-in format declares its baseline run (STS's line files are the default)", () => {
    expect(Formats.names.map((n) => [n, Formats.get(n)!.baselineRun])).toEqual([
      ["sts-gs", undefined],
      ["stsb-csv", "stsb"],
      ["sick", "sick"],
      ["semrel-csv", "semrel"]
    ])
  })

  it("familyOf reads it: SICK for the sick descriptor, STS for every other (a declarative format included)", () => {
    expect(Registry.builtin.map((e) => [e.id, Baseline.familyOf(e)]).filter(([, f]) => f === "sick")).toEqual([["sick2014", "sick"]])
    const declarative = Registry.decodeEditionSync({ ...Registry.get("stsb")!, id: "mine", datasets: [{ ...Registry.get("stsb")!.datasets[0], format: { type: "delimited", score: "s" } }] })
    expect(Baseline.familyOf(declarative)).toBe("sts")
  })

  it("Run.shapeOf is the run its datasets' formats declare: each built-in edition's", () => {
    expect(Object.fromEntries(Registry.builtin.map((e) => [e.id, Run.shapeOf(e)]))).toEqual({
      sick2014: "sick",
      sts2012: "sts",
      sts2013: "sts",
      sts2014: "sts",
      "sts2014-es": "sts",
      sts2015: "sts",
      sts2016: "sts",
      sts2017: "sts",
      stsb: "stsb",
      "stsb-dev": "stsb",
      "semrel2024-a": "semrel",
      "semrel2024-b": "semrel",
      "semrel2024-c": "semrel"
    })
  })

  it("a new edition on a format that declares its run gets that run, with no change in baselines", () => {
    const pairs = [{ sentence1: "A man sings.", sentence2: "A man sings." }]
    const newStsb = Registry.decodeEditionSync({ ...Registry.get("stsb")!, id: "stsb-2027", title: "a new STS Benchmark split" })
    const stsb = Baseline.sts("tokencos", [{ dataset: newStsb.datasets[0].name, pairs }], { shape: Run.shapeOf(newStsb) })
    // the same sentence twice: the cosine of two equal bags of tokens, 1
    expect(stsb.run).toEqual({ _tag: "stsb", scores: Float64Array.of(1) })
    expect(Run.toRun(stsb.run, { team: "T" }).map((f) => f.path)).toEqual(["T_run1primary.txt"])
    const newSemrel = Registry.decodeEditionSync({ ...Registry.get("semrel2024-a")!, id: "semrel2027", title: "a new SemRel year", datasets: [Registry.get("semrel2024-a")!.datasets[0]] })
    const language = newSemrel.datasets[0].name
    const semrel = Baseline.sts("tokencos", [{ dataset: language, pairs, pairIds: ["P1"] }], { shape: Run.shapeOf(newSemrel) })
    expect(Run.toRun(semrel.run, { team: "T" }).map((f) => f.path)).toEqual([`T_run1primary/pred_${language}.csv`])
    expect(() => Baseline.sts("tokencos", [{ dataset: "d", pairs }], { shape: Run.shapeOf(Registry.get("sick2014")!) })).toThrow(/a SICK edition's run is Baseline.sick's/)
  })
})
