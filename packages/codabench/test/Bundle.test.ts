/**
 * The bundle: competition.yaml checked against the package's Schema AND against Codabench's own
 * unpacking rules, re-stated here from its source (see `unpackerProblems`); the scoring program,
 * the flat reference data, the logo, the zip.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import * as zlib from "node:zlib"
import { Registry } from "@stseval/formats"
import { Effect } from "effect"
import { unzipSync } from "fflate"
import { beforeAll, describe, expect, it } from "vitest"
import * as Yaml from "yaml"
import { Bundle, CompetitionYaml, ReferenceData, Scores } from "../src/index.js"
import { run, sickExample, sts2017, writeSemRel, writeSickDev, writeSts2017 } from "./support/fixtures.js"
import { hasShared, sharedRoot, stubCli } from "./support/worker.js"

/**
 * What Codabench checks when it unpacks a v2 bundle, re-stated from codalab/codabench at c7dbc756
 * (v1.25): `src/apps/competitions/unpackers/v2.py` (`V2Unpacker`), `base_unpacker.py`
 * (`_validate_phase_ordering`), `utils.py` (`get_datetime`), `src/apps/competitions/tasks.py`
 * (`unpack_competition`); column rules from `src/apps/api/serializers/leaderboards.py`
 * (`LeaderboardSerializer.validate_columns`) and lengths from `src/apps/leaderboards/models.py`,
 * `src/apps/competitions/models.py` — independently of the package's Schema. The YAML is read as
 * PyYAML reads it (YAML 1.1: `CompetitionYaml.parseAsCodabench`, itself checked against PyYAML in
 * Dates.test.ts).
 */
const unpackerProblems = (dir: string): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const yamlPath = path.join(dir, "competition.yaml")
  if (!fs.existsSync(yamlPath)) return ["competition.yaml is missing from zip"]
  const loaded = CompetitionYaml.parseAsCodabench(fs.readFileSync(yamlPath, "utf8"))
  if ("error" in loaded) return [`yaml: ${loaded.error}`]
  const y = loaded.value as Record<string, unknown>
  // tasks.py: str(version) must be "2" for the v2 unpacker (else v1.5).
  const version = y["version"] ?? "1"
  if (!((typeof version === "number" || typeof version === "string") && String(version) === "2")) problems.push("version is not 2")
  const nonEmptyFile = (f: unknown, what: string) => {
    if (typeof f !== "string") return problems.push(`${what}: not a path`)
    const p = path.join(dir, f)
    if (!fs.existsSync(p)) problems.push(`Unable to find ${what}: ${f}`)
    else if (fs.statSync(p).size === 0) problems.push(`${what} ${f} is empty`)
  }
  // V2Unpacker.__init__: title (the serializer requires it), docker_image (CharField 128).
  if (typeof y["title"] !== "string" || y["title"].length === 0 || y["title"].length > 256) problems.push("title")
  if (y["docker_image"] !== undefined && (typeof y["docker_image"] !== "string" || y["docker_image"].length > 128)) problems.push("docker_image")
  // _unpack_pages: iterates competition_yaml.get('pages') (no default): required; each file must exist and not be empty.
  if (!Array.isArray(y["pages"])) problems.push("pages: not a list")
  else for (const p of y["pages"] as Array<Record<string, unknown>>) nonEmptyFile(p["file"], "page")
  // _unpack_tasks: tasks required; each needs an index (unique) and a scoring_program (or a key).
  const taskIndexes = new Set<unknown>()
  if (!Array.isArray(y["tasks"])) problems.push("No tasks listed in this competition")
  else
    for (const t of y["tasks"] as Array<Record<string, unknown>>) {
      if (t["index"] === undefined) problems.push("No index for task")
      if (taskIndexes.has(t["index"])) problems.push("Duplicate task indexes")
      taskIndexes.add(t["index"])
      if (t["key"] === undefined && t["scoring_program"] === undefined) problems.push("task does not have a scoring program")
      for (const kind of ["scoring_program", "reference_data", "input_data", "ingestion_program"]) {
        const file = t[kind]
        if (file !== undefined && (typeof file !== "string" || !fs.existsSync(path.join(dir, file)))) problems.push(`Cannot find dataset: ${JSON.stringify(file)}`)
      }
    }
  // _unpack_terms and _unpack_image: required, must exist (terms not empty).
  nonEmptyFile(y["terms"], "terms")
  if (y["image"] === undefined) problems.push("An image for this competition could not be found in the yaml")
  else nonEmptyFile(y["image"], "image")
  // _unpack_phases: sorted by index; each needs tasks pointing at defined tasks; start required;
  // _validate_phase_ordering: a phase followed by another needs an end, and the next starts strictly after it.
  // get_datetime: a date or datetime (a YAML timestamp) becomes midnight of its date; a string keeps its time.
  const when = (v: unknown): number | undefined =>
    typeof v === "object" && v !== null && (v as { _tag?: unknown })._tag === "Timestamp"
      ? Date.UTC((v as CompetitionYaml.Timestamp).year, (v as CompetitionYaml.Timestamp).month - 1, (v as CompetitionYaml.Timestamp).day)
      : typeof v === "string"
        ? Date.parse(`${v.replace(" ", "T")}Z`)
        : undefined
  if (!Array.isArray(y["phases"])) problems.push("Unable to find any phases for this competition")
  else {
    const phases = [...(y["phases"] as Array<Record<string, unknown>>)].sort((a, b) => Number(a["index"] ?? 0) - Number(b["index"] ?? 0))
    for (const [i, p] of phases.entries()) {
      if (!Array.isArray(p["tasks"])) problems.push("Phases must contain at least one task to be valid")
      else for (const t of p["tasks"] as Array<unknown>) if (!taskIndexes.has(t)) problems.push(`phase points to a missing task ${String(t)}`)
      if (when(p["start"]) === undefined || Number.isNaN(when(p["start"]))) problems.push("phase start")
      if (typeof p["name"] !== "string" || p["name"].length > 256) problems.push("phase name")
      for (const k of ["max_submissions", "max_submissions_per_day", "execution_time_limit"]) {
        if (p[k] !== undefined && !(Number.isInteger(p[k]) && (p[k] as number) >= 0)) problems.push(`phase ${k} is not a positive integer`)
      }
      if (i === 0) continue
      const before = phases[i - 1]
      if (when(before["end"]) === undefined) problems.push("must have an end time because it has a phase after it")
      else if (when(p["start"])! < when(before["end"])!) problems.push("Phases must be sequential")
      else if (when(p["start"]) === when(before["end"])) problems.push("Phases dates conflict")
    }
  }
  // _unpack_leaderboards: required; every phase gets leaderboards[0]. LeaderboardSerializer: at
  // least one column, unique indexes and keys; model lengths.
  if (!Array.isArray(y["leaderboards"])) problems.push("Could not find leaderboards in the competition yaml")
  else
    for (const l of y["leaderboards"] as Array<Record<string, unknown>>) {
      if (typeof l["title"] !== "string" || l["title"].length > 64) problems.push("leaderboard title")
      if (typeof l["key"] !== "string" || l["key"].length > 36) problems.push("leaderboard key")
      const columns = (l["columns"] ?? []) as Array<Record<string, unknown>>
      if (columns.length === 0) problems.push("Leaderboards require at least 1 column")
      if (new Set(columns.map((c) => c["index"])).size !== columns.length) problems.push("Columns must have unique indexes!")
      if (new Set(columns.map((c) => c["key"])).size !== columns.length) problems.push("Columns must have unique keys!")
      for (const c of columns) {
        if (typeof c["title"] !== "string" || c["title"].length > 36) problems.push(`column title ${String(c["title"])}`)
        if (typeof c["key"] !== "string" || c["key"].length > 36) problems.push(`column key ${String(c["key"])}`)
        if (!Number.isInteger(c["index"]) || (c["index"] as number) < 0) problems.push("column index")
        if (c["sorting"] !== undefined && c["sorting"] !== "desc" && c["sorting"] !== "asc") problems.push("column sorting")
        if (c["computation"] !== undefined && c["computation_indexes"] === undefined) problems.push("Column with computation must have at least 1 column selected")
      }
    }
  return problems
}

let work: string
let cli: string

beforeAll(() => {
  ;({ work, cli } = stubCli("// the single-file CLI would be here\n"))
})

const readCompetition = (dir: string) => Yaml.parse(fs.readFileSync(path.join(dir, "competition.yaml"), "utf8")) as unknown

describe("writeBundle", () => {
  it("a zip that cannot be written (stopped or failed while zipping) leaves no --out for the next run to refuse", async () => {
    const out = path.join(work, "zip-fails")
    const blocker = path.join(work, "zip-blocker")
    fs.writeFileSync(blocker, "a file where the zip's folder should be\n")
    const failed = await run(Effect.flip(Bundle.writeBundle({ task: "sick2014", gold: sickExample.gold, out, zip: path.join(blocker, "bundle.zip"), cliBundle: cli })))
    expect(failed.reason).toMatch(/bundle\.zip cannot be written: .*a part of the path is not a folder \(ENOTDIR\)$/)
    expect(fs.existsSync(out)).toBe(false)
    expect(fs.readdirSync(work).filter((n) => n.startsWith(".zip-fails."))).toEqual([])
    // the next run, with a zip it can write, is not refused
    const written = await run(Bundle.writeBundle({ task: "sick2014", gold: sickExample.gold, out, zip: true, cliBundle: cli }))
    expect(fs.existsSync(written.zip!)).toBe(true)
    expect(fs.existsSync(path.join(out, "competition.yaml"))).toBe(true)
  })

  it("SICK with a development gold: a bundle Codabench accepts, columns = the scores.json keys, run limit = max_submissions", async () => {
    const out = path.join(work, "sick")
    const written = await run(
      Bundle.writeBundle({ task: "sick2014", gold: sickExample.gold, devGold: writeSickDev(path.join(work, "sick-dev")), out, zip: true, cliBundle: cli, liveTest: true, now: new Date("2014-01-10T12:00:00Z") })
    )
    expect(unpackerProblems(out)).toEqual([])
    const competition = await run(CompetitionYaml.decode(readCompetition(out)))
    expect(competition).toEqual(written.competition)
    expect(await run(CompetitionYaml.checkBundle(out))).toEqual([])

    const edition = Registry.get("sick2014")!
    expect(competition.phases.map((p) => [p.name, p.start, p.end, p.max_submissions])).toEqual([
      ["Development", "2014-01-10 00:00:00", "2014-03-11 23:59:59", 100],
      ["Test", "2014-03-12 00:00:00", "2014-03-25 23:59:59", edition.runLimit]
    ])
    expect(competition.tasks.map((t) => [t.index, t.scoring_program, t.reference_data])).toEqual([
      [0, "scoring_program", "reference_data_dev"],
      [1, "scoring_program", "reference_data_test"]
    ])
    const board = competition.leaderboards[0]
    const sick = Scores.board(edition)
    expect(board.columns.map((c) => c.key)).toEqual("problem" in sick ? [] : sick.columns.map((c) => c.key))
    expect(board.columns.map((c) => c.index)).toEqual([0, 1, 2, 3, 4])
    expect(board.columns.find((c) => c.key === "relatedness_mse")!.sorting).toBe("asc")
    expect(board.primary_index).toBe(0)
    expect(competition.docker_image).toMatch(/^node:\d+/)
    expect(competition.show_detailed_results_in_leaderboard).toBe(false)

    // The scoring program: the command and the one-file CLI, nothing else.
    expect(fs.readdirSync(path.join(out, "scoring_program")).sort()).toEqual(["metadata.yaml", "stseval.mjs"])
    const metadata = Yaml.parse(fs.readFileSync(path.join(out, "scoring_program/metadata.yaml"), "utf8")) as { command: string }
    expect(metadata.command).toBe("node /app/program/stseval.mjs codabench score /app/input /app/output")
    expect(fs.readFileSync(path.join(out, "scoring_program/stseval.mjs"), "utf8")).toBe(fs.readFileSync(cli, "utf8"))

    // Reference data: flat, the gold and the task file.
    for (const [ref, gold] of [
      ["reference_data_dev", "SICK_trial.txt"],
      ["reference_data_test", "SICK_test_annotated.txt"]
    ]) {
      const entries = fs.readdirSync(path.join(out, ref), { withFileTypes: true })
      expect(entries.every((e) => e.isFile())).toBe(true)
      expect(entries.map((e) => e.name).sort()).toEqual([gold, "stseval-task.json"])
    }
    const reference = await run(ReferenceData.read(path.join(out, "reference_data_test")))
    expect(reference.edition).toEqual(edition)
    // the test gold is secret: its detailed results show no gold value
    expect(reference.plot).toBe("run")
    expect(reference.leaderboard).toBe("official")
    const devReference = await run(ReferenceData.read(path.join(out, "reference_data_dev")))
    expect(devReference.edition.datasets[0].pairs).toBeUndefined()
    expect(devReference.plot).toBe("points")

    // The zip: competition.yaml at its root and every file of the folder.
    const zipped = unzipSync(fs.readFileSync(written.zip!))
    expect(written.zip).toBe(`${out}.zip`)
    expect(Object.keys(zipped).sort()).toEqual(
      [
        "competition.yaml",
        "logo.png",
        "pages/evaluation.md",
        "pages/overview.md",
        "pages/submitting.md",
        "reference_data_dev/SICK_trial.txt",
        "reference_data_dev/stseval-task.json",
        "reference_data_test/SICK_test_annotated.txt",
        "reference_data_test/stseval-task.json",
        "scoring_program/metadata.yaml",
        "scoring_program/stseval.mjs",
        "terms.md"
      ].sort()
    )
    expect(new TextDecoder().decode(zipped["competition.yaml"])).toBe(fs.readFileSync(path.join(out, "competition.yaml"), "utf8"))
  })

  it("the logo is a PNG that decodes (Codabench makes an icon of it)", () => {
    const png = fs.readFileSync(path.join(work, "sick", "logo.png"))
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
    let offset = 8
    const chunks: Array<{ type: string; data: Buffer }> = []
    while (offset < png.length) {
      const length = png.readUInt32BE(offset)
      const type = png.subarray(offset + 4, offset + 8).toString("latin1")
      const data = png.subarray(offset + 8, offset + 8 + length)
      expect(png.readUInt32BE(offset + 8 + length)).toBe(zlib.crc32(png.subarray(offset + 4, offset + 8 + length)))
      chunks.push({ type, data })
      offset += 12 + length
    }
    expect(chunks.map((c) => c.type)).toEqual(["IHDR", "IDAT", "IEND"])
    const [width, height, depth, colour] = [chunks[0].data.readUInt32BE(0), chunks[0].data.readUInt32BE(4), chunks[0].data[8], chunks[0].data[9]]
    expect([width, height, depth, colour]).toEqual([1, 1, 8, 6])
    expect(zlib.inflateSync(chunks[1].data).length).toBe(height * (1 + width * 4))
  })

  it("STS 2017 without a development gold: only the test phase, the edition's columns in published order", async () => {
    const data = writeSts2017(path.join(work, "sts2017-data"), [])
    const out = path.join(work, "sts2017")
    const written = await run(Bundle.writeBundle({ task: "sts2017", gold: data.gold, out, cliBundle: cli, liveTest: true, title: "STS 2017 rerun", dockerImage: "node:20-slim" }))
    expect(unpackerProblems(out)).toEqual([])
    expect(written.notes[0]).toContain("only the test phase")
    const competition = await run(CompetitionYaml.decode(readCompetition(out)))
    expect(competition.title).toBe("STS 2017 rerun")
    expect(competition.docker_image).toBe("node:20-slim")
    expect(competition.phases.map((p) => [p.name, p.max_submissions, p.tasks])).toEqual([["Test", 3, [0]]])
    expect(competition.leaderboards[0].columns.map((c) => [c.key, c.precision])).toEqual(Scores.columns(sts2017).map((c) => [c.key, 2]))
    expect(competition.leaderboards[0].columns[0].title).toBe("Official: Mean")
    expect(fs.readdirSync(path.join(out, "reference_data_test")).sort()).toEqual([...sts2017.datasets.map((d) => d.gold), "stseval-task.json"].sort())

    // The re-stated unpacker rules do catch a broken bundle.
    const broken = path.join(work, "sts2017-broken")
    fs.cpSync(out, broken, { recursive: true })
    fs.writeFileSync(path.join(broken, "terms.md"), "")
    fs.rmSync(path.join(broken, "pages/overview.md"))
    const yaml = fs.readFileSync(path.join(broken, "competition.yaml"), "utf8")
    fs.writeFileSync(path.join(broken, "competition.yaml"), yaml.replace("version: 2", "version: 1").replace("key: official", "key: track1_ar_ar"))
    expect(unpackerProblems(broken)).toEqual(["version is not 2", "Unable to find page: pages/overview.md", "terms terms.md is empty", "Columns must have unique keys!"])
    expect((await run(CompetitionYaml.checkBundle(broken))).map((p) => p.file)).toEqual(["competition.yaml"])
  })

  it("refuses a gold with errors, a folder that is not empty, a missing CLI and phase dates out of order", async () => {
    const bad = path.join(work, "bad-gold")
    fs.mkdirSync(bad)
    for (const d of sts2017.datasets) fs.writeFileSync(path.join(bad, d.gold), "1\n2\n")
    fs.writeFileSync(path.join(bad, sts2017.datasets[0].gold), "1\nzwei\n")
    const error = (options: Partial<Bundle.Options>) =>
      run(Effect.flip(Bundle.writeBundle({ task: "sts2017", gold: bad, out: path.join(work, `x-${Math.random()}`), cliBundle: cli, liveTest: true, ...options })))
    expect((await error({})).reason).toMatch(/--gold: the gold has errors: .*STS\.gs\.track1\.ar-ar\.txt:2/)
    const data = writeSts2017(path.join(work, "sts2017-ok"), [])
    const full = path.join(work, "full")
    fs.mkdirSync(full)
    fs.writeFileSync(path.join(full, "x"), "")
    expect((await error({ gold: data.gold, out: full })).reason).toContain("is not empty")
    expect((await error({ gold: data.gold, cliBundle: path.join(work, "none.mjs") })).reason).toContain("does not exist")
    // found after the pages and reference data were written: nothing of them is left (issue 22)
    const late = fs.mkdtempSync(path.join(work, "late-"))
    const lateOut = path.join(late, "bundle")
    expect((await error({ gold: data.gold, out: lateOut, testStart: new Date("2017-01-10T00:00:00Z"), testEnd: new Date("2017-01-01T00:00:00Z") })).reason).toContain("must end after it starts")
    expect(fs.readdirSync(late)).toEqual([])
    expect((await error({ task: "nope" })).reason).toContain("no built-in edition")
  })
})

describe("CompetitionYaml", () => {
  const valid = () =>
    ({
      version: 2,
      title: "t",
      description: "d",
      image: "logo.png",
      terms: "terms.md",
      docker_image: "node:22-bookworm-slim",
      pages: [],
      phases: [
        { index: 0, name: "Dev", start: "2020-01-01 00:00:00", end: "2020-02-01 00:00:00", tasks: [0] },
        { index: 1, name: "Test", start: "2020-02-02 00:00:00", end: "2020-02-10 00:00:00", tasks: [0] }
      ],
      tasks: [{ index: 0, name: "task", scoring_program: "scoring_program" }],
      leaderboards: [{ title: "Results", key: "main", columns: [{ title: "r", key: "pearson", index: 0 }] }]
    }) as Record<string, unknown> & { phases: Array<Record<string, unknown>>; leaderboards: Array<Record<string, unknown>> }

  const problem = async (value: unknown) => {
    const result = await run(Effect.result(CompetitionYaml.decode(value)))
    return result._tag === "Failure" ? result.failure.message : undefined
  }

  it("accepts a minimal valid competition and round-trips it through YAML", async () => {
    const c = await run(CompetitionYaml.decode(valid()))
    expect(await run(CompetitionYaml.decode(Yaml.parse(CompetitionYaml.stringify(c))))).toEqual(c)
  })

  it("rejects what Codabench rejects", async () => {
    const without = (k: string) => {
      const v = valid()
      delete v[k]
      return v
    }
    for (const k of ["title", "image", "terms", "pages", "phases", "tasks", "leaderboards"]) expect(await problem(without(k)), k).toBeDefined()
    const v1 = valid()
    v1["version"] = 1
    expect(await problem(v1)).toBeDefined()
    // base_unpacker.py `_validate_phase_ordering`, in its words
    const overlap = valid()
    overlap.phases[1]["start"] = "2020-01-15 00:00:00"
    expect(await problem(overlap)).toContain('phases must be sequential: phase "Test" starts before phase "Dev" has ended')
    const sameInstant = valid()
    sameInstant.phases[1]["start"] = "2020-02-01 00:00:00"
    expect(await problem(sameInstant)).toContain('phases dates conflict: phase "Test" must start after phase "Dev" has ended')
    const noEnd = valid()
    delete noEnd.phases[0]["end"]
    expect(await problem(noEnd)).toContain("must have an end time because it has a phase after it")
    const badTask = valid()
    badTask.phases[0]["tasks"] = [3]
    expect(await problem(badTask)).toContain("task 3")
    const badDate = valid()
    badDate.phases[0]["start"] = "2020-02-30 00:00:00"
    expect(await problem(badDate)).toContain("not a calendar date")
    const dupKeys = valid()
    dupKeys.leaderboards[0]["columns"] = [
      { title: "a", key: "k", index: 0 },
      { title: "b", key: "k", index: 1 }
    ]
    expect(await problem(dupKeys)).toContain("unique keys")
    const longKey = valid()
    longKey.leaderboards[0]["columns"] = [{ title: "a", key: "k".repeat(37), index: 0 }]
    expect(await problem(longKey)).toBeDefined()
    const computed = valid()
    computed.leaderboards[0]["columns"] = [{ title: "a", key: "k", index: 0, computation: "avg" }]
    expect(await problem(computed)).toContain("computation_indexes")
    const noColumns = valid()
    noColumns.leaderboards[0]["columns"] = []
    expect(await problem(noColumns)).toBeDefined()
  })
})

describe("ReferenceData", () => {
  it("keeps nested gold files flat and lays them out again as the edition names them", async () => {
    const semrel = Registry.get("semrel2024-a")!
    const edition = { ...semrel, datasets: semrel.datasets.map(({ pairs: _pairs, ...d }) => d) }
    const data = writeSemRel(path.join(work, "semrel-ref"), edition, 10, [])
    const ref = path.join(work, "semrel-reference-data")
    await run(ReferenceData.write(ref, edition, data.gold))
    const entries = fs.readdirSync(ref, { withFileTypes: true })
    expect(entries.every((e) => e.isFile())).toBe(true)
    // esp: the organisers never released its test labels, so it has no gold file to carry.
    const scored = edition.datasets.filter((d) => d.goldNotPublic === undefined)
    expect(scored.length).toBe(edition.datasets.length - 1)
    expect(entries.map((e) => e.name).sort()).toEqual([...scored.map((d) => d.gold.replace("/", "__")), "stseval-task.json"].sort())
    const reference = await run(ReferenceData.read(ref))
    expect(reference.edition).toEqual(edition)
    const laid = await run(ReferenceData.layOut(reference, path.join(work, "semrel-laid-out")))
    for (const d of scored) expect(fs.readFileSync(path.join(laid, d.gold)).equals(fs.readFileSync(path.join(data.gold, d.gold)))).toBe(true)
    // A flat gold is used where it is.
    const flat = await run(ReferenceData.read(path.join(work, "sick", "reference_data_test")))
    expect(flat.files).toBeUndefined()
    expect(await run(ReferenceData.layOut(flat, path.join(work, "unused")))).toBe(flat.goldPath)
  })
})

describe("SemEval-2024 Task 1 bundles, as an organiser would make them", () => {
  const edition = { ...Registry.get("semrel2024-a")!, datasets: Registry.get("semrel2024-a")!.datasets.map(({ pairs: _pairs, ...d }) => d) }
  const write = (name: string, options: Partial<Bundle.Options>) =>
    run(Effect.flip(Bundle.writeBundle({ task: edition, gold: "", out: path.join(work, name), cliBundle: cli, liveTest: true, leaderboard: "eng", ...options }))).then((e) => e.reason)

  it("refuses a development gold that is the test gold (given the test folder), naming the file", async () => {
    const data = writeSemRel(path.join(work, "semrel-test-only"), edition, 12, [])
    const reason = await write("semrel-dev-is-test", { gold: data.gold, devGold: data.gold })
    expect(reason).toMatch(/^--dev-gold: the development gold of eng \(.*eng_test_with_labels\.csv\) is the test gold .*eng_test_with_labels\.csv: a development phase would show every test pair's gold/)
    expect(fs.existsSync(path.join(work, "semrel-dev-is-test"))).toBe(false)
  })

  it("refuses a development gold that shares pairs with the test gold, naming them", async () => {
    const data = writeSemRel(path.join(work, "semrel-overlap"), edition, 12, [])
    const dev = path.join(work, "semrel-overlap-dev")
    fs.mkdirSync(path.join(dev, "eng"), { recursive: true })
    const testRows = fs.readFileSync(path.join(data.gold, "eng/eng_test_with_labels.csv"), "utf8")
    // two test pairs among development pairs of its own
    const devRows = testRows.replace(/ENG-test-(00(0[2-9]|1\d))/g, "ENG-dev-$1").replace(/ENG-test-(000[01])/g, "ENG-test-$1")
    fs.writeFileSync(path.join(dev, "eng/eng_dev_with_labels.csv"), devRows.replace('"A ""quoted"" text 0', '"Another text 0'))
    const reason = await write("semrel-overlap-bundle", { gold: data.gold, devGold: dev })
    expect(reason).toBe(`--dev-gold: the development gold of eng (${path.join(dev, "eng/eng_dev_with_labels.csv")}) shares 2 pairs with the test gold ("ENG-test-0000", "ENG-test-0001"): a development phase would show their test gold`)
  })

  it("takes the organisers' *_dev_with_labels.csv beside the test files: the development phase scores them", async () => {
    const data = writeSemRel(path.join(work, "semrel-with-dev"), edition, 12, [])
    // the organisers' release: <lang>/<lang>_dev_with_labels.csv beside <lang>/<lang>_test_with_labels.csv
    const devIds: Array<string> = []
    for (const d of edition.datasets.filter((x) => x.goldNotPublic === undefined)) {
      const rows = Array.from({ length: 15 }, (_, i) => `${d.name.toUpperCase()}-dev-${String(i).padStart(4, "0")},"dev text ${i}\nand its pair",${(i % 6) / 5}`)
      if (d.name === "eng") devIds.push(...rows.map((r) => r.split(",")[0]))
      fs.writeFileSync(path.join(data.gold, d.gold.replace("_test_", "_dev_")), `PairID,Text,Score\n${rows.join("\n")}\n`)
    }
    const out = path.join(work, "semrel-dev-bundle")
    const written = await run(Bundle.writeBundle({ task: edition, gold: data.gold, devGold: data.gold, out, cliBundle: cli, liveTest: true, leaderboard: "eng" }))
    expect(written.competition.phases.map((p) => p.name)).toEqual(["Development", "Test"])
    expect(fs.readdirSync(path.join(out, "reference_data_dev")).sort()).toEqual(["eng__eng_dev_with_labels.csv", "stseval-task.json"])
    expect(fs.readdirSync(path.join(out, "reference_data_test")).sort()).toEqual(["eng__eng_test_with_labels.csv", "stseval-task.json"])
    const dev = await run(ReferenceData.read(path.join(out, "reference_data_dev")))
    expect(dev.edition.datasets.map((d) => d.gold)).toEqual(["eng/eng_dev_with_labels.csv"])
    expect(dev.plot).toBe("points")
    expect(unpackerProblems(out)).toEqual([])
  })

  it("one competition per language by default (--leaderboard each): each scores its language alone, never esp", async () => {
    const data = writeSemRel(path.join(work, "semrel-each"), edition, 12, [])
    const written = await run(Bundle.writeBundles({ task: edition, gold: data.gold, out: path.join(work, "semrel-each-out"), zip: true, cliBundle: cli, liveTest: true }))
    const languages = edition.datasets.filter((d) => d.goldNotPublic === undefined).map((d) => d.name)
    expect(written.map((w) => [path.basename(w.out), path.basename(w.zip!), w.competition.title])).toEqual(
      languages.map((l) => [l, `${l}.zip`, `${edition.title}: ${l}`])
    )
    for (const w of written) {
      expect(unpackerProblems(w.out)).toEqual([])
      expect(w.competition.leaderboards[0].columns.map((c) => c.key)).toEqual(["spearman", "pearson"])
      expect(fs.readdirSync(path.join(w.out, "reference_data_test")).filter((f) => f !== "stseval-task.json")).toEqual([`${w.board.name}__${w.board.name}_test_with_labels.csv`])
    }
    const several = await run(Effect.flip(Bundle.writeBundles({ task: edition, gold: data.gold, out: path.join(work, "semrel-each-zip"), zip: path.join(work, "x.zip"), cliBundle: cli, liveTest: true })))
    expect(several.reason).toContain("several zips")
  })

  it.skipIf(!hasShared)("on the shared data: the organisers' track A folder as both gold and --dev-gold", async () => {
    const track = path.join(sharedRoot, "data/semrel2024/track-a")
    const written = await run(Bundle.writeBundles({ task: "semrel2024-a", gold: track, devGold: track, out: path.join(work, "semrel-shared"), cliBundle: cli, liveTest: true }))
    expect(written.map((w) => w.board.name)).toEqual(["amh", "arq", "ary", "eng", "hau", "kin", "mar", "tel"])
    for (const w of written) expect(fs.readdirSync(path.join(w.out, "reference_data_dev")).filter((f) => f.endsWith(".csv"))).toEqual([`${w.board.name}__${w.board.name}_dev_with_labels.csv`])
  })
})

describe("the pages describe the edition's actual run, file names and official figure", () => {
  const page = (out: string, name: string) => fs.readFileSync(path.join(out, "pages", `${name}.md`), "utf8")

  it("SemRel: PairID,Pred_Score CSVs named pred_<lang>.csv, ranked by Spearman; no esp, no placeholder link", async () => {
    const edition = { ...Registry.get("semrel2024-a")!, datasets: Registry.get("semrel2024-a")!.datasets.map(({ pairs: _pairs, ...d }) => d) }
    const data = writeSemRel(path.join(work, "semrel-pages"), edition, 12, [])
    const eng = path.join(work, "semrel-pages-eng")
    await run(Bundle.writeBundle({ task: edition, gold: data.gold, out: eng, cliBundle: cli, liveTest: true, leaderboard: "eng" }))
    const submitting = page(eng, "submitting")
    expect(submitting).toContain("`pred_eng.csv`")
    expect(submitting).toContain("`PairID,Pred_Score`")
    expect(submitting).not.toContain("one score per line")
    expect(submitting).not.toContain("pred_esp.csv")
    expect(page(eng, "evaluation")).toContain("The leaderboard is ordered by **Spearman rho** (`spearman`): eng ranked on its own")
    expect(page(eng, "overview")).toContain("it scores eng only")
    const mean = path.join(work, "semrel-pages-mean")
    await run(Bundle.writeBundle({ task: edition, gold: data.gold, out: mean, cliBundle: cli, liveTest: true, leaderboard: "mean" }))
    const evaluation = page(mean, "evaluation")
    expect(evaluation).toContain("| Mean (unofficial) | `mean` | the mean of the per-dataset Spearman; it needs a run file for every dataset (orders the leaderboard) |")
    expect(evaluation).not.toMatch(/per-dataset Pearson/)
    expect(page(mean, "submitting")).toContain("one file per language you enter")
    expect(page(mean, "submitting")).toContain("a CSV with the header `PairID,Pred_Score`")
    expect(page(mean, "submitting")).not.toContain("pred_esp.csv")
    for (const out of [eng, mean]) for (const p of ["overview", "evaluation", "submitting"]) expect(page(out, p)).not.toMatch(/https?:\/\//)
  })

  it("STS 2017: one file per track, named exactly, one score per line; the official figure is the mean of the per-track Pearson", async () => {
    const data = writeSts2017(path.join(work, "sts2017-pages-data"), [])
    const out = path.join(work, "sts2017-pages")
    await run(Bundle.writeBundle({ task: "sts2017", gold: data.gold, out, cliBundle: cli, liveTest: true }))
    const submitting = page(out, "submitting")
    for (const d of sts2017.datasets) expect(submitting).toContain(`- \`${d.run}\``)
    expect(submitting).toContain("one score per line")
    expect(submitting).toContain("the closest expected name")
    expect(page(out, "evaluation")).toContain("| Official: Mean | `official` | the mean of the per-dataset Pearson x 100; it needs a run file for every dataset (orders the leaderboard) |")
  })

  it("SICK: one tab-separated file matched by pair_ID; the relatedness Pearson orders the board", () => {
    const evaluation = page(path.join(work, "sick"), "evaluation")
    expect(evaluation).toContain("The leaderboard is ordered by **Relatedness r** (`relatedness_pearson`)")
    expect(page(path.join(work, "sick"), "submitting")).toContain("`pair_ID`, `entailment_judgment`, `relatedness_score`")
  })
})
