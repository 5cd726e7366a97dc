/**
 * Issue 32, "Docs for a new task": what docs/task-registry.md now says an organiser needs, checked
 * on the command line. A headerless TSV task (a TAB written "\t", positions as integers) scores
 * as hand-worked; a TAB not in double quotes and a quoted position are refused; `direction:
 * descending` changes no figure when gold and runs share the scale; without `alsoAggregate` a
 * ranking prints wmean, mean and pooled; `missingDataset: zero` zeroes a dataset that failed on an
 * error, so `rank` ranks the run, while `significance` leaves it out.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { scratchDir, writeIn } from "@stseval/vitest-config/temp"
import { examples, runCli } from "./support/cli.js"

const tmp = scratchDir("new-task-docs")
const write = (name: string, text: string) => writeIn(tmp, name, text)
const tsv = path.join(examples, "headerless-tsv")
const json = async <A>(args: ReadonlyArray<string>): Promise<A> => {
  const r = await runCli(args)
  return JSON.parse(r.stdout) as A
}
type Scored = { runs: Array<{ run: { id: string }; datasets: Record<string, { figures: Record<string, number | null> }>; aggregates: Record<string, Record<string, { value: number | null; datasets: Array<string> }>>; official: Array<{ value: number | null; zeroed: Array<{ dataset: string }> }> }> }
const figure = (doc: Scored, id: string, dataset: string, metric: string) => doc.runs.find((r) => r.run.id === id)?.datasets[dataset]?.figures[metric]

describe("a headerless TSV task (examples/headerless-tsv)", () => {
  it("scores as worked by hand: Alpha orders the pairs as the gold (Spearman 1), Beta 1 - 6 x 12 / 210 = 23/35", async () => {
    const r = await runCli(["score", "--task", path.join(tsv, "edition.yaml"), "--gold", path.join(tsv, "gold.tsv"), path.join(tsv, "submissions"), "--json"])
    expect(r.code, r.stderr).toBe(0)
    const doc = JSON.parse(r.stdout) as Scored
    expect(figure(doc, "Alpha/run1", "test", "spearman")).toBeCloseTo(1, 12)
    expect(figure(doc, "Beta/run1", "test", "spearman")).toBeCloseTo(23 / 35, 12)
  })

  it("a TAB not in double quotes, or a position written as a string, is refused naming the field", async () => {
    const edition = fs.readFileSync(path.join(tsv, "edition.yaml"), "utf8")
    const single = write("single.yaml", edition.replace('delimiter: "\\t"', "delimiter: '\\t'"))
    const a = await runCli(["tasks", single])
    expect(a.code).toBe(2)
    expect(a.stderr).toContain("format")
    const quoted = write("quoted.yaml", edition.replace("id: 1 ", 'id: "1" '))
    const b = await runCli(["tasks", quoted])
    expect(b.code).toBe(2)
    expect(b.stderr).toContain("format")
  })

  it("direction: descending changes no figure when gold and runs share the scale", async () => {
    const edition = fs.readFileSync(path.join(tsv, "edition.yaml"), "utf8")
    const flipped = write("flipped.yaml", edition.replace("scale: { min: 0, max: 5 }", "scale: { min: 0, max: 5, direction: descending }"))
    const args = (task: string) => ["score", "--task", task, "--gold", path.join(tsv, "gold.tsv"), path.join(tsv, "submissions"), "--json"]
    const up = await json<Scored>(args(path.join(tsv, "edition.yaml")))
    const down = await json<Scored>(args(flipped))
    for (const id of ["Alpha/run1", "Beta/run1"]) {
      // equal to the last bits of a double (the same arithmetic on reversed values)
      for (const metric of ["spearman", "pearson"]) expect(figure(down, id, "test", metric), `${id} ${metric}`).toBeCloseTo(figure(up, id, "test", metric)!, 14)
    }
  })
})

describe("two datasets in one file, ranked by the weighted mean under missingDataset: zero", () => {
  // a: 8 pairs, b: 8 pairs; Broken has no line for b3, so b fails on an error
  const gold = [4.1, 0.5, 3.3, 2.2, 1.8, 4.9, 0.2, 3.0]
  const ids = (s: string) => gold.map((_, i) => `${s}${i}`)
  const g = write("two/gold.csv", `pair_id,set,score\n${["a", "b"].flatMap((s) => ids(s).map((id, i) => `${id},${s},${gold[i]}\n`)).join("")}`)
  const run = (name: string, shift: ReadonlyArray<number>, skip?: string) =>
    write(`two/subs/${name}.csv`, `pair_id,score\n${["a", "b"].flatMap((s) => ids(s).flatMap((id, i) => (id === skip ? [] : [`${id},${(gold[i] + shift[i]).toFixed(2)}\n`]))).join("")}`)
  run("Full_run1primary", [0.9, -0.8, 0.4, 1.1, -1.2, 0.3, 0.7, -0.5])
  run("Other_run1primary", [1.9, -1.8, 1.4, -2.1, 1.2, -1.3, 1.7, -1.5])
  run("Broken_run1primary", [0.1, -0.1, 0.1, -0.1, 0.1, -0.1, 0.1, -0.1], "b3")
  const edition = write(
    "two/edition.yaml",
    [
      "id: two-sets",
      "title: Two sets in one file",
      "scale: { min: 0, max: 5 }",
      "submission: file",
      "format: { type: delimited, id: pair_id, score: score, dataset: set }",
      "datasets:",
      "  - { name: a, gold: gold.csv, run: predictions.csv }",
      "  - { name: b, gold: gold.csv, run: predictions.csv }",
      "runLimit: 3",
      "ranking:",
      "  - { subtask: similarity, metric: pearson, aggregate: wmean }",
      "missingDataset: zero",
      "published: { style: r3 }",
      ""
    ].join("\n")
  )
  const task = ["--task", edition, "--gold", g, path.dirname(g) + "/subs"]

  it("without alsoAggregate: wmean, mean and pooled beside the official figure", async () => {
    const doc = await json<Scored>(["score", ...task, "--json"])
    const full = doc.runs.find((r) => r.run.id === "Full/run1")!
    expect(Object.keys(full.aggregates["official"]).sort()).toEqual(["mean", "pooled", "wmean"])
  })

  it("the dataset that failed on an error counts as r = 0 (its full weight): the run is still ranked by rank, and left out by significance", async () => {
    const doc = await json<Scored>(["score", ...task, "--json"])
    const broken = doc.runs.find((r) => r.run.id === "Broken/run1")!
    const ra = figure(doc, "Broken/run1", "a", "pearson")!
    expect(figure(doc, "Broken/run1", "b", "pearson") ?? null).toBeNull()
    expect(broken.official[0].zeroed.map((z) => z.dataset)).toEqual(["b"])
    expect(broken.official[0].value).toBeCloseTo((ra * 8 + 0 * 8) / 16, 12)
    // beside it, the aggregates over the datasets the run has, saying so
    expect(broken.aggregates["official"]["wmean"]).toMatchObject({ datasets: ["a"] })
    const rank = await json<{ rankings: { rankings: Array<{ entries: Array<{ id: string; rank: number | null }> }> } }>(["rank", ...task, "--json"])
    expect(rank.rankings.rankings[0].entries.find((e) => e.id === "Broken/run1")?.rank).toEqual(expect.any(Number))
    const sig = await runCli(["significance", ...task])
    expect(sig.stdout).toContain("left out: Broken/run1: b: 1 pair of dataset b (of 8) have no line in the run")
    expect(sig.stdout).not.toMatch(/^\d+ +Broken\/run1/m)
  })
})
