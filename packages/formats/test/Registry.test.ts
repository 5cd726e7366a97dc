/**
 * The task registry: built-in editions are valid data with the papers' facts, user editions load
 * from JSON and YAML, and bad edition files give errors naming the file and the field.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { Metrics } from "@stseval/metrics"
import { Registry } from "@stseval/formats"

const here = path.dirname(fileURLToPath(import.meta.url))
const fixtures = path.join(here, "fixtures", "registry")
const repoRoot = path.resolve(here, "../../..")

const run = <A, E>(effect: Effect.Effect<A, E, NodeServices.NodeServices>) =>
  Effect.runPromise(effect.pipe(Effect.provide(NodeServices.layer)))
const fail = async <A>(effect: Effect.Effect<A, Registry.EditionError, NodeServices.NodeServices>) => {
  const exit = await Effect.runPromiseExit(effect.pipe(Effect.provide(NodeServices.layer)))
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  return run(Effect.flip(effect))
}

const edition = (id: string) => {
  const e = Registry.get(id)
  if (e === undefined) throw new Error(`no edition ${id}`)
  return e
}

describe("built-in editions", () => {
  it("has the editions of SPEC §1 with unique ids", () => {
    expect(Registry.builtinIds).toEqual([
      "sick2014",
      "sts2012",
      "sts2013",
      "sts2014",
      "sts2014-es",
      "sts2015",
      "sts2016",
      "sts2017",
      "stsb",
      "stsb-dev",
      "semrel2024-a",
      "semrel2024-b",
      "semrel2024-c"
    ])
  })

  it("every built-in passes its own Schema as plain JSON data (what a user file would hold) and decodes to itself (so Registry.builtin uses the data undecoded)", async () => {
    for (const e of Registry.builtin) {
      const decoded = await run(Registry.decodeEdition(JSON.parse(JSON.stringify(e)), e.id))
      expect(decoded).toEqual(e)
    }
  })

  it("SICK 2014: one file per run, 5 runs, relatedness by Pearson and entailment by accuracy (SPEC §1)", () => {
    const e = edition("sick2014")
    expect(e.scale).toEqual({ min: 1, max: 5 })
    expect(e.submission).toBe("file")
    expect(e.runLimit).toBe(5)
    // the run file's two columns are two datasets of the one gold file, each scored by its ranking
    expect(e.datasets.map((d) => [d.name, Registry.subtaskOf(e, d), d.gold, d.pairs])).toEqual([
      ["relatedness", "relatedness", "SICK_test_annotated.txt", 4927],
      ["entailment", "entailment", "SICK_test_annotated.txt", 4927]
    ])
    expect(e.datasets.map((d) => [Registry.formatOf(e, d).name, Registry.columnOf(e, d).kind])).toEqual([
      ["sick", "scores"],
      ["sick", "labels"]
    ])
    expect(e.ranking.map((r) => [r.subtask, r.metric])).toEqual([["relatedness", "pearson"], ["entailment", "accuracy"]])
    expect(Registry.reportedMetrics(Registry.rankingOf(e, "relatedness")!)).toEqual(["pearson", "spearman", "mse"])
  })

  it("STS 2014 English: the six datasets and pair counts of the paper, weighted mean, missing = 0", () => {
    const e = edition("sts2014")
    expect(Object.fromEntries(e.datasets.map((d) => [d.name, d.pairs]))).toEqual({
      "deft-forum": 450,
      "deft-news": 300,
      headlines: 750,
      images: 750,
      OnWN: 750,
      "tweet-news": 750
    })
    expect(e.ranking[0].aggregate).toBe("wmean")
    expect(e.missingDataset).toBe("zero")
    expect(e.published.style).toBe("r3")
    expect(e.data?.dir).toBe("sts2014/test-en")
  })

  it("STS 2014 Spanish: scale 0-4, Wikipedia 324 and News 480, no public data", () => {
    const e = edition("sts2014-es")
    expect(e.scale).toEqual({ min: 0, max: 4 })
    expect(e.datasets.map((d) => [d.name, d.pairs, d.language])).toEqual([["wikipedia", 324, "es"], ["news", 480, "es"]])
    expect(e.data).toBeUndefined()
  })

  it("STS 2016 gold files are named STS2016.gs.<dataset>.txt", () => {
    expect(edition("sts2016").datasets.map((d) => d.gold)).toContain("STS2016.gs.answer-answer.txt")
  })

  it("STS 2017: seven tracks of 250 pairs, track 6 scores input lines 1-250 of 500, unweighted mean, r x 100", () => {
    const e = edition("sts2017")
    expect(e.datasets.map((d) => d.name)).toEqual([
      "track1.ar-ar",
      "track2.ar-en",
      "track3.es-es",
      "track4a.es-en",
      "track4b.es-en",
      "track5.en-en",
      "track6.tr-en"
    ])
    expect(e.datasets.every((d) => d.pairs === 250)).toBe(true)
    const t6 = e.datasets.find((d) => d.name === "track6.tr-en")!
    expect([t6.scoredLines, t6.inputLines]).toEqual([250, 500])
    expect(e.ranking[0]).toMatchObject({ metric: "pearson", aggregate: "mean" })
    expect(e.missingDataset).toBe("no-official-score")
    expect(e.runLimit).toBe(3)
    expect(e.published.style).toBe("r100")
  })

  it("STS Benchmark: test 1379 and dev 1500 pairs from the csv", () => {
    expect(edition("stsb").datasets[0]).toMatchObject({ gold: "sts-test.csv", format: "stsb-csv", pairs: 1379 })
    expect(edition("stsb-dev").datasets[0]).toMatchObject({ gold: "sts-dev.csv", pairs: 1500 })
  })

  it("SemEval-2024 Task 1: the languages of each track, Spearman ranked per language, an unofficial mean, esp not public", () => {
    expect(edition("semrel2024-a").datasets.map((d) => d.name)).toEqual(["amh", "arq", "ary", "eng", "esp", "hau", "kin", "mar", "tel"])
    const bc = ["afr", "amh", "arb", "arq", "ary", "eng", "esp", "hau", "hin", "ind", "kin", "pan"]
    expect(edition("semrel2024-b").datasets.map((d) => d.name)).toEqual(bc)
    expect(edition("semrel2024-c").datasets.map((d) => d.name)).toEqual(bc)
    for (const id of ["semrel2024-a", "semrel2024-b", "semrel2024-c"]) {
      const e = edition(id)
      expect(e.scale).toEqual({ min: 0, max: 1 })
      expect(e.submission).toBe("folder")
      const ranking = e.ranking[0]
      expect(ranking).toMatchObject({ subtask: "relatedness", metric: "spearman", aggregate: "mean", ranked: "per-dataset" })
      expect(Registry.isRankedPerDataset(ranking)).toBe(true)
      expect(Registry.reportedMetrics(ranking)).toEqual(["spearman", "pearson"])
      for (const d of e.datasets) {
        expect(d).toMatchObject({ gold: `${d.name}/${d.name}_test_with_labels.csv`, format: "semrel-csv", run: `pred_${d.name}.csv`, language: d.name })
        expect(Registry.formatOf(e, d).match).toBe("id")
        expect(d.goldNotPublic !== undefined).toBe(d.name === "esp")
      }
      // the labelled test files of the release, at the pinned commit, under the release's folder names
      expect(e.data?.dir).toBe(`semrel2024/track-${id.slice(-1)}`)
      const urls = e.data!.sources.map((s) => s.url)
      expect(urls).toContain(
        `https://github.com/semantic-textual-relatedness/Semantic_Relatedness_SemEval2024/raw/3c5941d/Track%20${id.slice(-1).toUpperCase()}/eng/eng_test_with_labels.csv`
      )
      expect(urls.some((u) => u.includes("esp_test_with_labels"))).toBe(false)
    }
    // the reference pair counts (../shared/reference/semrel2024-lexical-overlap.tsv)
    expect(Object.fromEntries(edition("semrel2024-b").datasets.map((d) => [d.name, d.pairs]))).toMatchObject({ afr: 375, eng: 2600, hin: 968, pan: 634 })
    expect(Registry.formatOf(edition("sts2014"), edition("sts2014").datasets[0]).match).toBe("line")
  })

  it("select: an id, or every edition named <name>-*", () => {
    expect(Registry.select("semrel2024").map((e) => e.id)).toEqual(["semrel2024-a", "semrel2024-b", "semrel2024-c"])
    expect(Registry.select("stsb").map((e) => e.id)).toEqual(["stsb"])
    expect(Registry.select("nope")).toEqual([])
  })

  it("a data source's file stays inside the data folder", async () => {
    const base = JSON.parse(JSON.stringify(edition("semrel2024-a"))) as { data: { sources: Array<{ url: string; file: string }> } }
    for (const file of ["../x.csv", "/etc/x", "a/../../x", "a\\b.csv", "./x.csv"]) {
      const bad = { ...base, data: { ...base.data, sources: [{ url: "https://example.org/x", file }] } }
      const error = await fail(Registry.decodeEdition(bad, "x.json"))
      expect(error.field, file).toBe("data.sources[0].file")
    }
  })

  it("every gold file of an edition with data is a download of its own or comes from one of its archives", () => {
    for (const e of Registry.builtin) {
      if (e.data === undefined) continue
      const files = e.data.sources.map((s) => s.file)
      expect(new Set(files).size, e.id).toBe(files.length)
      expect(e.data.sources.every((s) => s.url.startsWith("https://")), e.id).toBe(true)
      const archives = files.filter((f) => /\.(zip|tar\.gz|tgz)$/.test(f))
      for (const d of e.datasets) {
        if (d.goldNotPublic !== undefined) continue
        expect(files.includes(d.gold) || archives.length > 0, `${e.id} ${d.gold}`).toBe(true)
      }
    }
  })

  it("matches run files to datasets by name, aliases and case", () => {
    const sts2014 = edition("sts2014")
    expect(Registry.datasetOfRunFile(sts2014, "STS.output.headlines.txt")?.name).toBe("headlines")
    expect(Registry.datasetOfRunFile(sts2014, "STS.output.headlines.en.txt")?.name).toBe("headlines")
    expect(Registry.datasetOfRunFile(sts2014, "sts.OUTPUT.onwn.txt")?.name).toBe("OnWN")
    expect(Registry.datasetOfRunFile(sts2014, "notes.txt")).toBeUndefined()
    expect(Registry.datasetOfRunFile(edition("sts2016"), "SYSTEM_OUT.plagiarism.txt")?.name).toBe("plagiarism")
    // a single-file edition takes any file name
    expect(Registry.datasetOfRunFile(edition("sick2014"), "ECNU_run1primary.txt")?.name).toBe("relatedness")
  })

  it("resolve: a built-in id, or a clear error listing the known ids", async () => {
    expect((await run(Registry.resolve("sts2015"))).id).toBe("sts2015")
    const e = await fail(Registry.resolve("sts2099"))
    expect(e.message).toContain('no built-in edition "sts2099"')
    expect(e.message).toContain("sts2017")
    expect(e.toIssue()).toMatchObject({ severity: "error", code: "unknown-task", file: "sts2099" })
  })

  it("toIssue's code comes from the error's unknownId, never from the words of its reason", async () => {
    const yaml = path.join(os.tmpdir(), `extends-unknown-${process.pid}.yaml`)
    fs.writeFileSync(yaml, "extends: sts2099\nid: mine\n")
    const extending = await fail(Registry.loadEditionFile(yaml))
    fs.rmSync(yaml)
    expect(extending).toMatchObject({ unknownId: "sts2099", field: "extends" })
    expect(extending.toIssue()).toMatchObject({ code: "unknown-task", field: "extends" })
    expect((await fail(Registry.resolve("sts2099"))).unknownId).toBe("sts2099")
    // a reason that happens to start like the unknown id's is still a bad file
    const worded = new Registry.EditionError({ file: "mine.yaml", field: "description", reason: "no built-in edition is like this one" })
    expect(worded.toIssue()).toMatchObject({ code: "bad-task-file", field: "description" })
  })
})

describe("user edition files", () => {
  it("loads a YAML edition", async () => {
    const e = await run(Registry.loadEditionFile(path.join(fixtures, "user-edition.yaml")))
    expect(e.id).toBe("mysts2024")
    expect(e.datasets.map((d) => d.name)).toEqual(["news", "forum"])
    expect(e.datasets[1]).toMatchObject({ scoredLines: 2, inputLines: 4 })
    expect(e.ranking[0].report).toEqual(["pearson", "spearman"])
  })

  it("loads a JSON edition, also through resolve(path)", async () => {
    const file = path.join(fixtures, "user-edition.json")
    const e = await run(Registry.resolve(file))
    // written as one SICK dataset, it stands for the two columns its rankings rank
    expect(e.datasets.map((d) => [d.name, d.subtask, d.gold])).toEqual([
      ["relatedness", "relatedness", "gold.txt"],
      ["entailment", "entailment", "gold.txt"]
    ])
    expect(e.ranking.map((r) => r.subtask)).toEqual(["relatedness", "entailment"])
    expect(e.data).toEqual({ dir: "mysick", sources: [] })
  })

  it("a bad field: the error names the file and the exact field", async () => {
    const file = path.join(fixtures, "bad-gold-format.yaml")
    const e = await fail(Registry.loadEditionFile(file))
    expect(e.file).toBe(file)
    expect(e.field).toBe("datasets[1].goldFormat")
    expect(e.message).toContain(`${file}: datasets[1].goldFormat:`)
    expect(e.reason).toBe('unknown format "sts-gold" (known: sts-gs, stsb-csv, sick, semrel-csv, or a declarative format)')
  })

  it("a wrong type names the field", async () => {
    const e = await fail(Registry.loadEditionFile(path.join(fixtures, "bad-run-limit.yaml")))
    expect(e.field).toBe("runLimit")
    expect(e.reason).toBe('Expected number, got "two"')
    expect(e.toIssue()).toMatchObject({ code: "bad-task-file", field: "runLimit" })
  })

  it("an unknown (misspelt) field is an error, not silently dropped", async () => {
    const e = await fail(Registry.loadEditionFile(path.join(fixtures, "bad-excess-field.json")))
    expect(e.field).toBe("ranking[1].agregate")
  })

  it("YAML and JSON syntax errors say so, with the file", async () => {
    const y = await fail(Registry.loadEditionFile(path.join(fixtures, "bad-syntax.yaml")))
    expect(y.reason).toMatch(/^not valid YAML \(line \d+, column \d+\)/)
    const j = await fail(Registry.loadEditionFile(path.join(fixtures, "bad-syntax.json")))
    expect(j.reason).toMatch(/^not valid JSON/)
    expect(j.file).toContain("bad-syntax.json")
  })

  it("several bad fields: the first is named, the others counted", async () => {
    const base = JSON.parse(fs.readFileSync(path.join(fixtures, "user-edition.json"), "utf8")) as Record<string, unknown>
    const e = await fail(Registry.decodeEdition({ ...base, runLimit: -1, family: "xyz" }, "x.json"))
    expect(e.field).toBe("family")
    expect(e.reason).toContain("(and 1 more: runLimit: Expected a value greater than 0, got -1)")
  })

  it("the legacy `family` field: accepted in an edition file, then dropped, so nothing can decide by it", async () => {
    const base = JSON.parse(fs.readFileSync(path.join(fixtures, "user-edition.json"), "utf8")) as Record<string, unknown>
    const { family: _written, ...without } = base
    const withSick = await Effect.runPromise(Registry.decodeEdition({ ...without, family: "sick" }, "x.json"))
    const withSts = await Effect.runPromise(Registry.decodeEdition({ ...without, family: "sts" }, "x.json"))
    const none = await Effect.runPromise(Registry.decodeEdition(without, "x.json"))
    expect("family" in withSick).toBe(false)
    expect(withSick).toEqual(none)
    expect(withSts).toEqual(none)
    expect("family" in Registry.decodeEditionSync({ ...without, family: "sts" })).toBe(false)
    // the schema still documents it, for editors validating old files
    expect(JSON.stringify((Registry.jsonSchema()["properties"] as Record<string, unknown>)["family"])).toContain("ignored")
    expect(Registry.builtin.some((e) => "family" in e)).toBe(false)
  })

  it("a missing file is an EditionError naming it", async () => {
    const file = path.join(fixtures, "does-not-exist.yaml")
    const e = await fail(Registry.loadEditionFile(file))
    expect(e._tag).toBe("EditionError")
    expect(e.file).toBe(file)
    expect(e.reason).toContain("cannot read the file")
  })

  it("cross-field rules: duplicate dataset names, a file submission over two gold files, labels ranked by Pearson", async () => {
    const base = JSON.parse(fs.readFileSync(path.join(fixtures, "user-edition.json"), "utf8")) as { datasets: Array<Record<string, unknown>> }
    const dataset = base.datasets[0]
    const dup = await fail(Registry.decodeEdition({ ...base, datasets: [dataset, dataset] }, "x.json"))
    expect([dup.field, dup.reason]).toEqual(["datasets", 'dataset name "test" is used twice'])
    const two = await fail(Registry.decodeEdition({ ...base, datasets: [dataset, { ...dataset, name: "dev", gold: "dev.txt" }] }, "x.json"))
    expect(two.reason).toBe('a "file" submission is one run file, so every dataset must read the same gold file; this edition has 2')
    const wrong = await fail(
      Registry.decodeEdition({ ...base, ranking: [{ subtask: "entailment", metric: "pearson", aggregate: "single" }] }, "x.json")
    )
    expect(wrong.reason).toBe("dataset entailment holds labels, which Pearson (pearson) of its ranking does not score")
    const unknown = await fail(Registry.decodeEdition({ ...base, ranking: [{ subtask: "relatedness", metric: "pearsn", aggregate: "single" }] }, "x.json"))
    expect([unknown.field, unknown.reason]).toEqual(["ranking[0].metric", `unknown metric "pearsn" (known: ${Metrics.names.join(", ")})`])
    expect(Metrics.names).toContain("pearson")
    const scale = await fail(Registry.decodeEdition({ ...base, scale: { min: 5, max: 1 } }, "x.json"))
    expect([scale.field, scale.reason]).toEqual(["scale", "the scale's min (5) must be below its max (1)"])
  })
})

describe("an edition's data location stays under the data root", () => {
  const withData = (data: unknown) => ({ ...edition("sick2014"), id: "mine", data })

  it("a data.dir that climbs out, or is absolute, is refused", async () => {
    for (const dir of ["../../etc", "sick/../../x", "/tmp/x", "C:\\x", "a\\..\\..\\b"]) {
      const e = await fail(Registry.decodeEdition(withData({ dir, sources: [] }), "x.json"))
      expect(e.field, dir).toBe("data.dir")
      expect(e.reason).toContain("a folder relative to the data root")
    }
  })

  it("a sources[].file that leaves the edition's folder (../../X, a/../../b, /abs, x\\y) is refused", async () => {
    for (const file of ["../../X", "a/../../b.zip", "..", "/etc/x", "x\\y"]) {
      const e = await fail(Registry.decodeEdition(withData({ dir: "mine", sources: [{ url: "http://x/y", file }] }), "x.json"))
      expect(e.field, file).toBe("data.sources[0].file")
      expect(e.reason).toContain("a path inside the edition's data folder")
    }
  })

  it("ordinary ones decode", async () => {
    const ok = await run(Registry.decodeEdition(withData({ dir: "sts2014/test-en", sources: [{ url: "http://x/y", file: "y.tar.gz" }] }), "x.json"))
    expect(ok.data?.dir).toBe("sts2014/test-en")
  })
})

describe("an edition file cannot reach outside its folders, nor expand without bound", () => {
  const base = () => JSON.parse(fs.readFileSync(path.join(fixtures, "user-edition.json"), "utf8")) as { datasets: Array<Record<string, unknown>> }

  it("a dataset's gold, input or run name that climbs out is an error naming the field, and nothing is read", async () => {
    const b = base()
    const cases: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
      [{ gold: "../../../../etc/passwd" }, "datasets[0].gold"],
      [{ gold: "/etc/passwd" }, "datasets[0].gold"],
      [{ gold: "a/../../x.txt" }, "datasets[0].gold"],
      [{ input: "../pairs.txt" }, "datasets[0].input"],
      [{ run: "../../x.txt" }, "datasets[0].run"],
      [{ runAliases: ["ok.txt", "..\\x.txt"] }, "datasets[0].runAliases[1]"]
    ]
    for (const [change, field] of cases) {
      const e = await fail(Registry.decodeEdition({ ...b, datasets: [{ ...b.datasets[0], ...change }] }, "x.json"))
      expect(e.field, JSON.stringify(change)).toBe(field)
      expect(e.reason).toMatch(/^must be a path inside (the gold folder|a run folder)/)
      expect(e.message).not.toContain("root:")
    }
    // the files.gold pattern too
    const { gold: _gold, ...noGold } = b.datasets[0]
    const pattern = await fail(Registry.decodeEdition({ ...b, files: { gold: "../{dataset}.txt" }, datasets: [noGold] }, "x.json"))
    expect(pattern.field).toBe("files.gold")
    // a nested gold path inside the folder stays valid (SemRel's <lang>/<file>)
    const nested = await run(Registry.decodeEdition({ ...b, datasets: [{ ...b.datasets[0], gold: "en/gold.txt" }] }, "x.json"))
    expect(nested.datasets[0].gold).toBe("en/gold.txt")
  })

  it("a file whose YAML aliases expand past the budget is refused with an error naming it (one list through 90 aliases)", async () => {
    const dir = fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), "stseval-yaml-"))
    try {
      const file = path.join(dir, "laughs.yaml")
      // 20,000 items of 4 characters (about 140 KB) read 90 times: about 11 MB once expanded, under yaml's alias count
      const list = `anchor: &big [${Array.from({ length: 20_000 }, () => "xxxx").join(", ")}]\n`
      const uses = Array.from({ length: 90 }, (_, k) => `  k${k}: *big\n`).join("")
      fs.writeFileSync(file, `${fs.readFileSync(path.join(fixtures, "user-edition.yaml"), "utf8")}${list}extra:\n${uses}`)
      const e = await fail(Registry.loadEditionFile(file))
      expect(e.file).toBe(file)
      expect(e.reason).toBe("not usable YAML: its aliases expand it past 8 MiB (an edition file is a few KiB)")
      // a YAML file past 256 KiB is not parsed at all (the parser took 26 s on a 3 MB list)
      const big = path.join(dir, "big.yaml")
      fs.writeFileSync(big, `${fs.readFileSync(path.join(fixtures, "user-edition.yaml"), "utf8")}${"# padding\n".repeat(30_000)}`)
      const tooBig = await fail(Registry.loadEditionFile(big))
      expect(tooBig.file).toBe(big)
      expect(tooBig.reason).toMatch(/^a YAML edition file is at most 256 KiB \(an edition is a few KiB\), found \d+ characters; write a larger one as JSON$/)
      // an alias inside its own anchor
      const loop = Registry.parseEditionText("a: &x [1, *x]\n", "loop.yaml")
      expect(loop._tag === "error" ? loop.error.reason : "").toBe("not usable YAML: an alias inside its own anchor (an edition file is a few KiB)")
      // ordinary aliases still work
      const ok = Registry.parseEditionText("a: &x [1, 2]\nb: *x\n", "ok.yaml")
      expect(ok).toEqual({ _tag: "ok", value: { a: [1, 2], b: [1, 2] } })
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe("docs/schemas/task-edition.schema.json", () => {
  it("is the schema generated from TaskEdition (regenerate with Registry.jsonSchema() when this fails)", () => {
    const file = path.join(repoRoot, "docs", "schemas", "task-edition.schema.json")
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).toEqual(Registry.jsonSchema())
  })

  it("requires the fields the decoder requires and closes objects like the decoder", () => {
    const schema = Registry.jsonSchema() as { else: { required: Array<string> }; if: unknown; additionalProperties: boolean; properties: Record<string, { pattern?: string }> }
    // required unless the file extends another edition (then it gives only what differs)
    expect(schema.if).toEqual({ required: ["extends"] })
    expect(schema.else.required).toEqual(["id", "title", "scale", "submission", "datasets", "runLimit", "ranking", "missingDataset", "published"])
    expect(schema.additionalProperties).toBe(false)
    expect(schema.properties["id"].pattern).toBe("^[a-z0-9][a-z0-9._-]*$")
  })
})
