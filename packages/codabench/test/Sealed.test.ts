/**
 * A sealed test phase, as Codabench's code serves and runs it: what a participant can download
 * (`publicDatasets` re-states `get_public_datasets` and the unguarded `download` view) holds no test
 * gold; a submission is checked against the gold's shape exactly as against the gold and, when
 * valid, finishes with an empty scores.json (so that it is on the leaderboard, which the phase
 * migration needs); after `unseal` the Scoring phase scores it to the figures of `stseval rank`.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import * as Yaml from "yaml"
import { Bundle, ReferenceData, ScoringProgram, Sealed, Unseal } from "../src/index.js"
import { migrated, publicDatasets } from "./support/codabench.js"
import { rankJson, run, semrel, sickExample, writeSemRel, writeSickDev, writeSts2017 } from "./support/fixtures.js"
import { prepareApp, stubCli } from "./support/worker.js"
import type { SubmissionFiles } from "./support/worker.js"

let work: string
let cli: string

beforeAll(() => {
  ;({ work, cli } = stubCli())
})

const readTree = (dir: string): ReadonlyMap<string, Uint8Array> => {
  const out = new Map<string, Uint8Array>()
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(dir, rel))) {
      const r = rel === "" ? name : `${rel}/${name}`
      if (fs.statSync(path.join(dir, r)).isDirectory()) walk(r)
      else out.set(r, fs.readFileSync(path.join(dir, r)))
    }
  }
  walk("")
  return out
}

const competitionOf = (bundle: string) =>
  Yaml.parse(fs.readFileSync(path.join(bundle, "competition.yaml"), "utf8")) as {
    phases: Array<{ name: string; start: string; end?: string; tasks: Array<number>; auto_migrate_to_this_phase?: boolean; max_submissions?: number }>
    tasks: Array<Record<string, unknown>>
  }

/** Every file a participant can download, with the dataset it is in. */
const downloadable = (bundle: string) =>
  [...publicDatasets(bundle, competitionOf(bundle), readTree).entries()].flatMap(([dataset, files]) => [...files.entries()].map(([name, bytes]) => ({ dataset, name, bytes })))

const contains = (haystack: Uint8Array, needle: Uint8Array) => Buffer.from(haystack).includes(Buffer.from(needle))

/** Whether any downloadable file holds a gold file's bytes, or any of its rows that carry a gold value (`rows`, whole lines). */
const leaks = (bundle: string, goldFiles: ReadonlyArray<string>, rows: ReadonlyArray<string> = []) =>
  downloadable(bundle).filter(
    (f) => goldFiles.some((g) => contains(f.bytes, fs.readFileSync(g))) || rows.some((r) => contains(f.bytes, new TextEncoder().encode(`\n${r}`)))
  )

const score = (bundle: string, reference: string, files: SubmissionFiles) => {
  const app = prepareApp(bundle, reference, files)
  return run(ScoringProgram.scoreCodabench(app.input, app.output)).then((outcome) => ({
    outcome,
    scores: fs.existsSync(path.join(app.output, "scores.json")) ? (JSON.parse(fs.readFileSync(path.join(app.output, "scores.json"), "utf8")) as Record<string, number>) : undefined,
    html: fs.readFileSync(path.join(app.output, "detailed_results.html"), "utf8")
  }))
}

const filesOf = (folder: string): Record<string, Uint8Array> => Object.fromEntries(fs.readdirSync(folder).map((f) => [f, fs.readFileSync(path.join(folder, f))]))
const sickRows = () => fs.readFileSync(sickExample.gold, "utf8").split("\n").slice(1).filter((l) => l !== "")

describe("what a participant can download (get_public_datasets and the unguarded download view)", () => {
  it("SICK: the sealed bundle lists no test gold (the development gold is listed, as meant); the live one lists it, and says so", async () => {
    const dev = writeSickDev(path.join(work, "sick-dev"))
    const sealed = path.join(work, "sick-sealed")
    const written = await run(Bundle.writeBundle({ task: "sick2014", gold: sickExample.gold, devGold: dev, out: sealed, cliBundle: cli }))
    expect(leaks(sealed, [sickExample.gold], sickRows()).map((f) => `${f.dataset}/${f.name}`)).toEqual([])
    expect(downloadable(sealed).some((f) => contains(f.bytes, fs.readFileSync(dev)))).toBe(true)
    // the gold is beside the bundle, never in it (nor in its zip)
    expect(written.gold).toBe(`${sealed}.gold`)
    expect(fs.readFileSync(path.join(`${sealed}.gold`, "SICK_test_annotated.txt")).equals(fs.readFileSync(sickExample.gold))).toBe(true)
    expect([...readTree(sealed).values()].some((b) => contains(b, fs.readFileSync(sickExample.gold)))).toBe(false)

    const live = path.join(work, "sick-live")
    const liveWritten = await run(Bundle.writeBundle({ task: "sick2014", gold: sickExample.gold, devGold: dev, out: live, cliBundle: cli, liveTest: true }))
    expect(leaks(live, [sickExample.gold]).map((f) => `${f.dataset}/${f.name}`)).toEqual(["reference_data_test/SICK_test_annotated.txt"])
    expect(liveWritten.gold).toBeUndefined()
    expect(liveWritten.notes.join(" ")).toContain("the test gold is public")
    expect(fs.readFileSync(path.join(live, "pages/evaluation.md"), "utf8")).toContain("the test gold is public")
    expect(competitionOf(live).phases.map((p) => p.name)).toEqual(["Development", "Test"])
  })

  it("SemRel, one competition per language, gold in sub-folders: no competition lists any language's test gold", async () => {
    const edition = { ...semrel, datasets: semrel.datasets.map(({ pairs: _pairs, ...d }) => d) }
    const data = writeSemRel(path.join(work, "semrel"), edition, 20, [])
    const golds = edition.datasets.filter((d) => d.goldNotPublic === undefined).map((d) => path.join(data.gold, d.gold))
    const rows = golds.flatMap((g) => fs.readFileSync(g, "utf8").split(/\n(?=[A-Z]{3}-test)/).slice(1))
    const written = await run(Bundle.writeBundles({ task: edition, gold: data.gold, out: path.join(work, "semrel-each"), cliBundle: cli, zip: true }))
    expect(written.length).toBe(golds.length)
    for (const w of written) {
      expect(leaks(w.out, golds, rows)).toEqual([])
      expect(fs.existsSync(path.join(`${w.out}.gold`, edition.datasets.find((d) => d.name === w.board.name)!.gold))).toBe(true)
    }
  })
})

describe("a sealed competition: bundled, scored while sealed, unsealed, scored again", () => {
  it("the phases: Test on the sealed task, then Scoring on the same task, auto_migrate_to_this_phase, after the test phase ends", async () => {
    const data = writeSts2017(path.join(work, "sts-phases"), [])
    const out = path.join(work, "sts-phases-bundle")
    await run(Bundle.writeBundle({ task: "sts2017", gold: data.gold, out, cliBundle: cli, testStart: new Date("2017-01-09T12:00:00Z"), testEnd: new Date("2017-01-30T23:59:59Z") }))
    const { phases, tasks } = competitionOf(out)
    expect(phases.map((p) => [p.name, p.start, p.end, p.tasks, p.auto_migrate_to_this_phase])).toEqual([
      ["Test", "2017-01-09 12:00:00", "2017-01-30 23:59:59", [0], undefined],
      ["Scoring", "2017-02-01 23:59:59", undefined, [0], true]
    ])
    expect(tasks.map((t) => t["reference_data"])).toEqual(["reference_data_test"])
    const reference = await run(ReferenceData.read(path.join(out, "reference_data_test")))
    expect(reference.sealed?.shapes.map((s) => s.length)).toEqual(Array(7).fill(24))
    expect(fs.readdirSync(path.join(out, "reference_data_test"))).toEqual(["stseval-task.json"])
  })

  it("SICK: each submission is checked as the gold checks it; valid ones finish with an empty scores.json and migrate; after unseal the Scoring phase gives rank's figures", async () => {
    const out = path.join(work, "sick-flow")
    await run(Bundle.writeBundle({ task: "sick2014", gold: sickExample.gold, out, cliBundle: cli, testStart: new Date("2014-03-01T00:00:00Z"), testEnd: new Date("2014-03-15T23:59:59Z") }))
    const live = path.join(work, "sick-flow-live")
    await run(Bundle.writeBundle({ task: "sick2014", gold: sickExample.gold, out: live, cliBundle: cli, liveTest: true }))
    const text = fs.readFileSync(path.join(sickExample.runs, "MeaningFactory_run1primary.txt"), "utf8")
    const lines = text.split("\n")
    const bad: Record<string, SubmissionFiles> = {
      "unknown pair": { "run.txt": [lines[0], ...lines.slice(1).map((l, i) => (i === 3 ? l.replace(/^\d+/, "999999") : l))].join("\n") },
      "missing pair": { "run.txt": [lines[0], ...lines.slice(2)].join("\n") },
      "bad label": { "run.txt": [lines[0], ...lines.slice(1).map((l, i) => (i === 5 ? l.replace(/ENTAILMENT|NEUTRAL|CONTRADICTION/, "entails") : l))].join("\n") },
      "no relatedness": { "run.txt": text.replace(/\t[0-9.]+(\t|$)/gm, "\tNA$1") },
      "two files": { "a.txt": text, "b.txt": text }
    }
    // the same verdicts and reasons as against the gold itself
    for (const [name, files] of Object.entries(bad)) {
      const [sealed, scored] = [await score(out, "reference_data_test", files), await score(live, "reference_data_test", files)]
      expect(sealed.outcome.verdict, name).toBe("rejected")
      expect(sealed.outcome.reasons, name).toEqual(scored.outcome.reasons)
      expect(sealed.scores, name).toBeUndefined()
    }
    const runs = fs.readdirSync(sickExample.runs).filter((f) => f.endsWith(".txt"))
    const submissions = []
    const scoredLive: Array<string> = []
    for (const f of runs) {
      const files = { [f]: fs.readFileSync(path.join(sickExample.runs, f)) }
      const [s, l] = [await score(out, "reference_data_test", files), await score(live, "reference_data_test", files)]
      // valid while sealed exactly when the gold scores it; rejected with the gold's reasons otherwise
      expect(s.outcome.verdict, f).toBe(l.outcome.verdict === "scored" ? "received" : "rejected")
      expect(s.outcome.reasons, f).toEqual(l.outcome.reasons)
      // the signature of the real gold
      expect(s.outcome.signature, f).toBe(l.outcome.signature)
      if (l.outcome.verdict === "scored") scoredLive.push(f)
      if (s.outcome.verdict === "received") {
        expect(s.outcome.summary).toContain("received and is valid")
        expect(s.scores).toEqual({})
        // no figure on the page while sealed
        expect(s.html).not.toMatch(/<h2>Leaderboard<\/h2>/)
      }
      submissions.push({ name: f, status: s.outcome.verdict === "rejected" ? ("Failed" as const) : ("Finished" as const), onLeaderboard: s.scores !== undefined })
    }
    // a relatedness-only run (Insight's) is valid on the relatedness board; a run without a header is not
    expect(scoredLive).toContain("Insight_run1primary.txt")
    expect(scoredLive.length).toBeLessThan(runs.length)
    expect(migrated(submissions)).toEqual(scoredLive)

    // unseal: refused before the test phase ends, then the reference data to upload
    const early = await run(Effect.flip(Unseal.unseal({ bundle: out, out: path.join(work, "sick-gold-early"), now: new Date("2014-03-15T12:00:00Z") })))
    expect(early.reason).toContain("the test phase ends at 2014-03-15 23:59:59 UTC")
    const unsealed = await run(Unseal.unseal({ bundle: out, out: path.join(work, "sick-gold"), now: new Date("2014-03-16T00:00:00Z") }))
    expect(fs.existsSync(unsealed.zip)).toBe(true)
    expect(unsealed.task).toBe("sick2014 test")
    expect(unsealed.scoringPhase?.name).toBe("Scoring")
    expect(Unseal.steps(unsealed).join("\n")).toContain(`at most ${Unseal.RERUN_SUBMISSION_LIMIT} submissions`)
    // the Scoring phase runs each migrated submission on the task's new reference data
    const bundleAfter = path.join(work, "sick-flow-after")
    fs.cpSync(out, bundleAfter, { recursive: true })
    fs.rmSync(path.join(bundleAfter, "reference_data_test"), { recursive: true })
    fs.cpSync(unsealed.out, path.join(bundleAfter, "reference_data_test"), { recursive: true })
    const ranked = await rankJson("sick2014", sickExample.gold, sickExample.runs, false)
    const valueOf = (ranking: string, file: string) => {
      const [team, runNo] = /^(.+)_run(\d)/.exec(file)!.slice(1)
      return ranked.find((r) => r.ranking === ranking)!.entries.find((e) => e.team === team && e.run === Number(runNo))?.value
    }
    for (const f of migrated(submissions)) {
      const s = await score(bundleAfter, "reference_data_test", { [f]: fs.readFileSync(path.join(sickExample.runs, f)) })
      expect(s.outcome.verdict, f).toBe("scored")
      expect(s.scores?.["relatedness_pearson"], f).toBeCloseTo(valueOf("relatedness", f)!, 12)
      const accuracy = valueOf("entailment", f)
      if (accuracy !== undefined && accuracy !== null) expect(s.scores?.["entailment_accuracy"], f).toBeCloseTo(accuracy, 10)
    }
  })

  it("the scoring program and unseal refuse a gold other than the sealed one", async () => {
    const data = writeSts2017(path.join(work, "sts-other"), [{ name: "Team", seed: 5, noise: 0.5 }])
    const out = path.join(work, "sts-other-bundle")
    await run(Bundle.writeBundle({ task: "sts2017", gold: data.gold, out, cliBundle: cli }))
    const other = path.join(work, "sts-other-gold")
    fs.cpSync(data.gold, other, { recursive: true })
    const file = path.join(other, "STS.gs.track5.en-en.txt")
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/^[0-9.]+/, "4.99"))
    const refused = await run(Effect.flip(Unseal.unseal({ bundle: out, gold: other, out: path.join(work, "sts-other-unsealed"), early: true })))
    expect(refused.reason).toMatch(/is not the gold .* was sealed with: track5\.en-en: SHA-256/)
    // the right gold, then swapped on the server: the scoring program stops (a set-up error, exit 2)
    const unsealed = await run(Unseal.unseal({ bundle: out, out: path.join(work, "sts-other-unsealed"), early: true }))
    fs.copyFileSync(file, path.join(unsealed.out, "STS.gs.track5.en-en.txt"))
    const swapped = path.join(work, "sts-other-swapped")
    fs.cpSync(out, swapped, { recursive: true })
    fs.rmSync(path.join(swapped, "reference_data_test"), { recursive: true })
    fs.cpSync(unsealed.out, path.join(swapped, "reference_data_test"), { recursive: true })
    const app = prepareApp(swapped, "reference_data_test", filesOf(data.runs["Team"]))
    const error = await run(Effect.flip(ScoringProgram.scoreCodabench(app.input, app.output)))
    expect(error.reason).toContain("another gold than the one it was sealed with (track5.en-en: SHA-256")
    expect(Sealed.goldBeside(out)).toBe(`${out}.gold`)
  })
})
