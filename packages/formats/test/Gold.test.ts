/**
 * Loading an edition's gold: fixtures with hand-worked values (blank = not annotated, scoredLines,
 * STS-B csv quirks, SICK), missing files as issues, and every built-in edition with public data
 * against the pair counts of the papers and of ../shared/reference (skipped when ../shared is absent).
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { tsvRows } from "@stseval/vitest-config/tsv"
import { Gold, Issue, Registry } from "@stseval/formats"

const here = path.dirname(fileURLToPath(import.meta.url))
const fixtures = path.join(here, "fixtures", "gold")
const repoRoot = path.resolve(here, "../../..")
const shared = path.resolve(repoRoot, "../shared")
const hasShared = fs.existsSync(path.join(shared, "data")) && fs.existsSync(path.join(shared, "reference"))
if (!hasShared) console.warn(`Gold.test.ts: the ../shared data checks are skipped: ${shared} is absent`)

const run = <A, E>(effect: Effect.Effect<A, E, NodeServices.NodeServices>) =>
  Effect.runPromise(effect.pipe(Effect.provide(NodeServices.layer)))
const codes = (issues: ReadonlyArray<Issue.Issue>) => issues.map((i) => i.code)
const scoresOf = (d: Gold.GoldDataset | undefined) => {
  if (d?.kind !== "scores") throw new Error("expected a scores dataset")
  return d
}

const userEdition = run(Registry.loadEditionFile(path.join(here, "fixtures", "registry", "user-edition.yaml")))
const userSick = run(Registry.loadEditionFile(path.join(here, "fixtures", "registry", "user-edition.json")))

describe("loadGold from a folder", () => {
  it("reads each dataset's gold; a blank line is a pair not annotated (NaN); scoredLines keeps lines 1-N", async () => {
    const gold = await run(Gold.loadGold(await userEdition, path.join(fixtures, "sts")))
    expect(gold.edition).toBe("mysts2024")
    expect(gold.missing).toEqual([])
    const news = scoresOf(gold.datasets[0])
    expect(news.name).toBe("news")
    expect(Array.from(news.scores)).toEqual([4.2, NaN, 3, 0.5, NaN])
    expect(news.annotated).toBe(3)
    const forum = scoresOf(gold.datasets[1])
    // the forum gold has 4 lines; the edition scores lines 1-2 only
    expect(Array.from(forum.scores)).toEqual([1, 2])
    expect(forum.annotated).toBe(2)
    expect(codes(forum.issues)).toContain("lines-scored")
    expect(Issue.hasErrors(gold.issues)).toBe(false)
  })

  it("a missing gold file is an error naming the file and the dataset, and the dataset is listed missing", async () => {
    const gold = await run(Gold.loadGold(await userEdition, path.join(fixtures, "sts-bad")))
    expect(gold.missing).toEqual(["forum"])
    const missing = gold.issues.find((i) => i.field === "forum")!
    expect(missing).toMatchObject({ severity: "error", code: "file-unreadable", file: path.join(fixtures, "sts-bad", "STS.gs.forum.txt") })
    expect(missing.message).toContain("dataset forum is missing")
    expect(missing.message).toContain("cannot be scored")
  })

  it("a gold value that is not a number is the parser's error, with the line; the pair count check stays quiet", async () => {
    const gold = await run(Gold.loadGold(await userEdition, path.join(fixtures, "sts-bad")))
    const news = scoresOf(gold.datasets[0])
    expect(news.issues.filter((i) => i.severity === "error").map((i) => [i.code, i.line])).toEqual([["not-a-number", 2]])
    expect(codes(news.issues)).not.toContain("length-mismatch")
  })

  it("a gold folder that does not exist: every dataset missing, one error", async () => {
    const gold = await run(Gold.loadGold(await userEdition, path.join(fixtures, "nope")))
    expect(gold.datasets).toEqual([])
    expect(gold.missing).toEqual(["news", "forum"])
    expect(codes(gold.issues)).toEqual(["file-unreadable"])
  })

  it("one gold file of a multi-dataset edition loads that dataset only", async () => {
    const gold = await run(Gold.loadGold(await userEdition, path.join(fixtures, "sts", "STS.gs.news.txt")))
    expect(gold.datasets.map((d) => d.name)).toEqual(["news"])
    expect(gold.missing).toEqual(["forum"])
    expect(codes(gold.issues)).toContain("missing-dataset")
  })
})

describe("loadGold refuses what is not a regular file", () => {
  const sick = Registry.get("sick2014")!

  it("--gold /dev/zero: refused at once (a character device; its size 0 would pass a stat cap)", async () => {
    const gold = await run(Gold.loadGold(sick, "/dev/zero"))
    expect(gold.datasets).toEqual([])
    expect(gold.missing).toEqual(["relatedness", "entailment"])
    const issue = gold.issues.find((i) => i.severity === "error")!
    expect(issue).toMatchObject({ code: "file-unreadable", file: "/dev/zero" })
    expect(issue.message).toContain("is a character device, not a regular file")
  })

  it.skipIf(process.platform === "win32")("--gold <fifo>: refused, never blocks waiting for a writer", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-gold-"))
    try {
      const fifo = path.join(dir, "SICK_test_annotated.txt")
      execFileSync("mkfifo", [fifo])
      const gold = await run(Gold.loadGold(sick, fifo))
      expect(gold.missing).toEqual(["relatedness", "entailment"])
      expect(gold.issues.find((i) => i.severity === "error")!.message).toContain("is a FIFO (named pipe), not a regular file")
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("gold formats", () => {
  it("SICK: pairs with relatedness and entailment (CRLF file)", async () => {
    // the one file is read once and serves two datasets: its relatedness and its entailment column
    const gold = await run(Gold.loadGold(await userSick, path.join(fixtures, "sick-gold.txt")))
    expect(gold.datasets.map((d) => d.name)).toEqual(["relatedness", "entailment"])
    const [relatedness, entailment] = gold.datasets
    if (relatedness.kind !== "scores" || entailment.kind !== "labels") throw new Error("expected scores, then labels")
    expect(relatedness.table).toBe(entailment.table)
    const rows = relatedness.pairIds!.map((id, i) => [id, relatedness.scores[i], entailment.labels[i]])
    expect(rows).toEqual([
      ["1", 4.9, "ENTAILMENT"],
      ["2", 3.1, "CONTRADICTION"],
      ["3", 1.2, "NEUTRAL"]
    ])
    expect(Issue.hasErrors(gold.issues)).toBe(false)
    // the file's issues are listed once, though two datasets share them
    expect(gold.issues.filter((i) => i.code === "crlf")).toHaveLength(1)
  })

  it("SICK: an input file without gold columns is an error, not silent empty gold", async () => {
    const gold = await run(Gold.loadGold(await userSick, path.join(fixtures, "sick-input.txt")))
    expect(gold.issues.some((i) => i.severity === "error" && i.message.includes("it is an input file, not gold"))).toBe(true)
  })

  it("STS Benchmark csv: field 5 is the score, bare quotes and extra fields are fine", () => {
    const stsb = Registry.get("stsb")!
    const gold = Gold.goldFromTexts(stsb, [{ dataset: "test", file: "sts-tiny.csv", content: fs.readFileSync(path.join(fixtures, "sts-tiny.csv")) }])
    const d = scoresOf(gold.datasets[0])
    expect(Array.from(d.scores)).toEqual([5, 2.5, 0])
    expect(d.annotated).toBe(3)
    // the edition expects 1379 test pairs: a 3-row file is flagged
    expect(d.issues.map((i) => [i.code, i.expected, i.found])).toEqual([["length-mismatch", "1379 pairs", "3 pairs"]])
  })
})

describe("goldFromTexts (no file system)", () => {
  it("parses strings; a dataset without text is missing with an error naming it", () => {
    const sts2017 = Registry.get("sts2017")!
    const track6 = Array.from({ length: 260 }, (_, i) => `${i % 6}`).join("\n") + "\n"
    const gold = Gold.goldFromTexts(sts2017, [{ dataset: "track6.tr-en", file: "STS.gs.track6.tr-en.txt", content: track6 }])
    const d = scoresOf(gold.datasets[0])
    expect(d.scores.length).toBe(250)
    expect(d.scores[249]).toBe(249 % 6)
    expect(gold.missing).toHaveLength(6)
    expect(gold.issues.filter((i) => i.code === "file-unreadable").map((i) => i.field)).toEqual([
      "track1.ar-ar",
      "track2.ar-en",
      "track3.es-es",
      "track4a.es-en",
      "track4b.es-en",
      "track5.en-en"
    ])
  })
})

describe.skipIf(!hasShared)("every built-in edition with public data loads its gold from ../shared/data", () => {
  const data = path.join(shared, "data")
  // scored_pairs per (year, dataset) as computed with the official scorers
  const reference = hasShared
    ? tsvRows(path.join(shared, "reference", "sts-synthetic-runs.official.tsv")).map(([year, dataset, , gold, scored]) => ({ year: year, dataset: dataset, gold: gold, scored: Number(scored) }))
    : []

  // SemRel: pairs per track and language, from the baseline reference (all 30 labelled test sets)
  const semrelPairs: Record<string, number> = hasShared
    ? Object.fromEntries(
        tsvRows(path.join(shared, "reference", "semrel2024-lexical-overlap.tsv")).map(([track, lang, pairs]) => [`semrel2024-${track.slice(-1)}/${lang}`, Number(pairs)])
      )
    : {}

  it.each(Registry.builtin.filter((e) => e.data !== undefined).map((e) => [e.id, e] as const))("%s", async (_id, edition) => {
    const gold = await run(Gold.loadGold(edition, path.join(data, edition.data!.dir)))
    // SemRel esp: the test labels were never released; listed, with the reason, as a warning
    const notPublic = edition.datasets.filter((d) => d.goldNotPublic !== undefined).map((d) => d.name)
    expect(gold.missing).toEqual(notPublic)
    expect(gold.issues.filter((i) => i.severity !== "info" && !(i.code === "not-public" && notPublic.includes(i.field ?? "")))).toEqual([])
    for (const d of gold.datasets) {
      const spec = edition.datasets.find((s) => s.name === d.name)!
      const count = d.annotated
      // published counts: SICK test 4927 (SPEC §1), STS-B test 1379 / dev 1500, STS from the reference table
      const year = edition.id === "stsb" ? "stsbenchmark" : edition.id
      const ref = reference.find((r) => r.year === year && r.dataset === d.name)
      if (ref !== undefined) {
        expect(count, `${edition.id} ${d.name}`).toBe(ref.scored)
        expect(path.join(data, ref.gold)).toBe(d.file)
      } else {
        const published: Record<string, number> = { "sick2014/relatedness": 4927, "sick2014/entailment": 4927, "stsb-dev/dev": 1500, ...semrelPairs }
        expect(count, `${edition.id} ${d.name}`).toBe(published[`${edition.id}/${d.name}`])
      }
      expect(count).toBe(spec.pairs)
    }
  })

  it("every STS dataset of the reference table is a dataset of its built-in edition", () => {
    for (const r of reference) {
      const edition = Registry.get(r.year === "stsbenchmark" ? "stsb" : r.year)!
      expect(edition.datasets.map((d) => d.name), `${r.year} ${r.dataset}`).toContain(r.dataset)
    }
    // 5 + 4 + 6 + 5 + 5 + 7 datasets of STS 2012-2017 and the STS-B test set
    expect(reference.length).toBe(33)
  })
})
