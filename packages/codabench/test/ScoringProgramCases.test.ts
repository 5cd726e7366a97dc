/**
 * The scoring program's cases, in process (the worker run itself is in ScoringProgram.test.ts):
 * missing tracks, constant and non-finite runs, empty and nested submissions, hostile file names,
 * the development phase, and a broken competition set-up.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as net from "node:net"
import * as path from "node:path"
import { Effect } from "effect"
import { zipSync } from "fflate"
import { beforeAll, describe, expect, it } from "vitest"
import { Bundle, ScoringProgram } from "../src/index.js"
import { run, semrel, sickExample, sts2017, writeSemRel, writeSickDev, writeSts2017, writeStsb } from "./support/fixtures.js"
import { prepareApp, tempDir } from "./support/worker.js"
import type { SubmissionFiles } from "./support/worker.js"

let work: string
let sts: ReturnType<typeof writeSts2017>
let stsBundle: string
let stsbBundle: string
let sickBundle: string

const key = (dataset: string) => dataset.replace(/[^a-z0-9]+/g, "_")
const filesOf = (folder: string): Record<string, Uint8Array> => Object.fromEntries(fs.readdirSync(folder).map((f) => [f, fs.readFileSync(path.join(folder, f))]))

beforeAll(async () => {
  work = tempDir()
  // The CLI bundle is not run here: any file stands in for it.
  const cli = path.join(work, "stseval.mjs")
  fs.writeFileSync(cli, "// not run in these tests\n")
  sts = writeSts2017(path.join(work, "sts2017"), [
    { name: "Full", seed: 3, noise: 0.5 },
    { name: "NoTrack6", seed: 4, noise: 0.5, missing: ["track6.tr-en"] }
  ])
  const devSts = writeSts2017(path.join(work, "sts2017-dev"), [], 16)
  stsBundle = path.join(work, "sts-bundle")
  await run(Bundle.writeBundle({ task: "sts2017", gold: sts.gold, devGold: devSts.gold, out: stsBundle, cliBundle: cli, liveTest: true }))
  const test = writeStsb(path.join(work, "stsb"), 21)
  const dev = writeStsb(path.join(work, "stsb-dev"), 22, 25)
  stsbBundle = path.join(work, "stsb-bundle")
  await run(Bundle.writeBundle({ task: "stsb", gold: test.gold, devGold: dev.gold, out: stsbBundle, cliBundle: cli, liveTest: true }))
  sickBundle = path.join(work, "sick-bundle")
  await run(Bundle.writeBundle({ task: "sick2014", gold: sickExample.gold, devGold: writeSickDev(path.join(work, "sick-dev")), out: sickBundle, cliBundle: cli, liveTest: true }))
})

const score = (bundle: string, reference: string, files: SubmissionFiles) => {
  const app = prepareApp(bundle, reference, files)
  return run(ScoringProgram.scoreCodabench(app.input, app.output)).then((outcome) => ({
    outcome,
    app,
    scores: fs.existsSync(path.join(app.output, "scores.json")) ? (JSON.parse(fs.readFileSync(path.join(app.output, "scores.json"), "utf8")) as Record<string, number>) : undefined,
    html: fs.readFileSync(path.join(app.output, "detailed_results.html"), "utf8")
  }))
}

describe("scoreCodabench", () => {
  it("a run missing a track has no official figure (the mean of all seven): it fails, naming the figure, and shows no figure", async () => {
    const { outcome, scores, html } = await score(stsBundle, "reference_data_test", filesOf(sts.runs["NoTrack6"]))
    expect(outcome.verdict).toBe("rejected")
    expect(scores).toBeUndefined()
    expect(outcome.reasons).toHaveLength(1)
    expect(outcome.reasons[0]).toMatch(/^the leaderboard is ordered by Official: Mean \(official\), and it could not be computed: .*track6\.tr-en/)
    expect(outcome.summary).toContain("does not count against your limit")
    expect(html).toContain("Official: Mean (official)")
    // a rejected submission shows no figure (it costs nothing, so it must not give test figures away)
    expect(html).not.toContain("Leaderboard</h2>")
  })

  it("a figure other than the leaderboard's primary one that cannot be computed is left out, with its reason (SICK without entailment)", async () => {
    const lines = fs.readFileSync(path.join(sickExample.runs, "Insight_run1primary.txt"), "utf8").split("\n")
    const header = lines[0].split("\t")
    const e = header.indexOf("entailment_judgment")
    const relatednessOnly = lines.map((l, i) => (i === 0 || l === "" ? l : l.split("\t").map((f, k) => (k === e ? "NA" : f)).join("\t"))).join("\n")
    const { outcome, scores } = await score(sickBundle, "reference_data_test", { "run.txt": relatednessOnly })
    expect(outcome.verdict).toBe("scored")
    expect(Object.keys(scores!)).toEqual(["relatedness_pearson", "relatedness_spearman", "relatedness_mse", "figures"])
    expect(outcome.scores?.omitted.map((o) => o.key)).toEqual(["entailment_accuracy"])
  })

  it("never writes NaN: a constant run has no Pearson, so no official figure: it fails and says why", async () => {
    const constant = Object.fromEntries(sts2017.datasets.map((d) => [d.run, "2.5\n".repeat(24)]))
    const { outcome, scores } = await score(stsBundle, "reference_data_test", constant)
    expect(outcome.verdict).toBe("rejected")
    expect(scores).toBeUndefined()
    expect(outcome.reasons[0]).toMatch(/could not be computed/)
  })

  it("a misnamed file fails the submission, with the closest expected name (it would otherwise be scored without it and cost a test submission)", async () => {
    const files: Record<string, string | Uint8Array> = { ...filesOf(sts.runs["Full"]) }
    files["STS.output.track5.txt"] = files["STS.output.track5.en-en.txt"]
    delete files["STS.output.track5.en-en.txt"]
    const { outcome, scores, html } = await score(stsBundle, "reference_data_test", files)
    expect(outcome.verdict).toBe("rejected")
    expect(scores).toBeUndefined()
    const reason = outcome.reasons.find((r) => r.startsWith("STS.output.track5.txt:"))!
    expect(reason).toContain("did you mean STS.output.track5.en-en.txt?")
    expect(reason).not.toContain(path.sep === "/" ? "/tmp" : "\\")
    expect(html).toContain("did you mean STS.output.track5.en-en.txt?")
    // hidden files a zip tool adds are not run files and fail nothing
    const hidden = await score(stsBundle, "reference_data_test", { ...filesOf(sts.runs["Full"]), ".DS_Store": "x", "__MACOSX/._STS.output.track1.ar-ar.txt": "x" })
    expect(hidden.outcome.verdict).toBe("scored")
  })

  it("rejects a non-finite score with its file and line", async () => {
    const files: Record<string, string | Uint8Array> = { ...filesOf(sts.runs["Full"]) }
    const lines = new TextDecoder().decode(files["STS.output.track5.en-en.txt"] as Uint8Array).split("\n")
    lines[6] = "NaN"
    files["STS.output.track5.en-en.txt"] = lines.join("\n")
    const { outcome, scores, html } = await score(stsBundle, "reference_data_test", files)
    expect(outcome.verdict).toBe("rejected")
    expect(scores).toBeUndefined()
    expect(outcome.reasons.join("\n")).toMatch(/^STS\.output\.track5\.en-en\.txt:7: /m)
    expect(html).toContain("STS.output.track5.en-en.txt")
  })

  it("scores the same run whether it comes flat, in a folder, or as a zip inside the zip", async () => {
    const flat = await score(stsBundle, "reference_data_test", filesOf(sts.runs["Full"]))
    const folder = await score(stsBundle, "reference_data_test", Object.fromEntries(Object.entries(filesOf(sts.runs["Full"])).map(([n, b]) => [`Full_run1/${n}`, b])))
    const zipped = await score(stsBundle, "reference_data_test", { "Full_run1.zip": zipSync(filesOf(sts.runs["Full"])) })
    expect(Object.keys(flat.scores!)).toHaveLength(8)
    expect(folder.scores).toEqual(flat.scores)
    expect(zipped.scores).toEqual(flat.scores)
  })

  it("rejects an empty submission (only the worker's metadata file in res/)", async () => {
    const { outcome, scores } = await score(stsBundle, "reference_data_test", {})
    expect(outcome.verdict).toBe("rejected")
    expect(outcome.reasons[0]).toContain("holds no files")
    expect(scores).toBeUndefined()
  })

  it("escapes what the participant sends: a hostile file name is shown as text", async () => {
    const hostile = `<script>alert("x")</script><img src=x onerror=alert(1)>.txt`
    const { html, outcome } = await score(stsBundle, "reference_data_test", { ...filesOf(sts.runs["Full"]), [hostile]: "1\n" })
    expect(outcome.warnings.join("\n") + outcome.reasons.join("\n")).toContain("<script>")
    expect(html).not.toContain("<script")
    expect(html).not.toContain("<img")
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;")
  })

  it("one run per submission: files none of which is a run file, or two runs, are rejected with what to send", async () => {
    const misnamed = await score(stsBundle, "reference_data_test", { "predictions.txt": "1\n2\n" })
    expect(misnamed.outcome.verdict).toBe("rejected")
    expect(misnamed.scores).toBeUndefined()
    // the engine names the run's own problem: no file named after a dataset, and the names it wants;
    // the misnamed file itself gets the closest name
    expect(misnamed.outcome.reasons).toHaveLength(2)
    expect(misnamed.outcome.reasons.join("\n")).toContain("found predictions.txt")
    expect(misnamed.outcome.reasons.join("\n")).toContain(sts2017.datasets.map((d) => d.run).join(", "))
    expect(misnamed.outcome.reasons.join("\n")).toMatch(/^predictions\.txt: .*did you mean STS\.output\.[^ ]+\.txt\?$/m)
    expect(misnamed.html).toContain("predictions.txt")
    expect(misnamed.outcome.reasons.join("\n")).not.toContain(misnamed.app.app)
    const run40 = Array.from({ length: 40 }, (_, i) => `${i % 5}\n`).join("")
    const two = await score(stsbBundle, "reference_data_test", { "sts-test.output.txt": run40, "other.txt": run40 })
    expect(two.outcome.verdict).toBe("rejected")
    expect(two.outcome.reasons).toEqual(["the submission holds 2 runs; submit one run per submission (its file(s) at the zip's top level)"])
    expect(two.html).toContain("the submission holds 2 runs")
    expect(two.outcome.signature).toMatch(/^stsb@/)
  })

  it("scores the development phase under the same leaderboard keys", async () => {
    const devRun = Object.fromEntries(sts2017.datasets.map((d, k) => [d.run, Array.from({ length: 16 }, (_, i) => `${((i * 7 + k * 3) % 11) / 2}\n`).join("")]))
    const { outcome, scores } = await score(stsBundle, "reference_data_dev", devRun)
    expect(outcome.verdict).toBe("scored")
    expect(Object.keys(scores!)).toEqual(["official", ...sts2017.datasets.map((d) => key(d.name))])
    const stsbDev = await score(stsbBundle, "reference_data_dev", { "sts-dev.output.txt": Array.from({ length: 25 }, (_, i) => `${i % 5}\n`).join("") })
    expect(Object.keys(stsbDev.scores!)).toEqual(["pearson", "spearman"])
    // The development phase plots the pairs against the gold; the test phase the run's own scores only.
    expect(stsbDev.html).toContain('class="pts"')
    const testRun = Array.from({ length: 40 }, (_, i) => i % 5)
    const stsbTest = await score(stsbBundle, "reference_data_test", { "sts-test.output.txt": testRun.map((x) => `${x}\n`).join("") })
    expect(stsbTest.html).not.toContain('class="pts"')
    expect(stsbTest.html).not.toContain("against gold")
    // the histogram's bars are the run's own counts: 8 pairs at each of 0, 1, 2, 3, 4
    expect([...stsbTest.html.matchAll(/<rect [^>]*><title>(\d+)<\/title><\/rect>/g)].map((m) => Number(m[1]))).toEqual([8, 8, 8, 8, 8])
  })

  it("the development phase speaks of the development data: no 'dataset test', no test input named in its stseval-task.json", async () => {
    const short = await score(stsbBundle, "reference_data_dev", { "sts-dev.output.txt": "1\n2\n3\n" })
    expect(short.outcome.verdict).toBe("rejected")
    expect(short.outcome.reasons.join("\n")).toContain("but dataset dev has 25 pairs")
    expect(short.outcome.reasons.join("\n")).not.toContain("dataset test")
    for (const bundle of [stsbBundle, sickBundle, stsBundle]) {
      const task = fs.readFileSync(path.join(bundle, "reference_data_dev", "stseval-task.json"), "utf8")
      expect(task).not.toMatch(/"input"|sts-test\.output|STS\.input\./)
    }
    // the test phase keeps the test input's name (pages: "the test input `sts-test.csv`")
    expect(fs.readFileSync(path.join(stsbBundle, "reference_data_test", "stseval-task.json"), "utf8")).toContain('"input": "sts-test.csv"')
  })

  it("a test page shows what the leaderboard shows: no per-track Spearman, no MSE on z-scores or macro-F1, and not which of track 6's 500 input lines are scored", async () => {
    const data = writeSts2017(path.join(work, "sts250"), [{ name: "T", seed: 8, noise: 0.5 }], 250)
    const files = filesOf(data.runs["T"])
    const six = sts2017.datasets.find((d) => d.name === "track6.tr-en")!.run
    files[six] = Buffer.concat([Buffer.from(files[six]), Buffer.from("2.5\n".repeat(250))])
    const cliFile = path.join(work, "stseval.mjs")
    const bundle = path.join(work, "sts250-bundle")
    await run(Bundle.writeBundle({ task: "sts2017", gold: data.gold, out: bundle, cliBundle: cliFile, liveTest: true }))
    const test = await score(bundle, "reference_data_test", files)
    expect(test.outcome.verdict).toBe("scored")
    expect(test.html).not.toMatch(/1-250|only lines|lines-scored/)
    expect(test.html).not.toMatch(/ρ \d/)
    // the board's figures are there
    expect(test.html).toMatch(/r \d/)
    const sick = await score(sickBundle, "reference_data_test", { "run.txt": fs.readFileSync(path.join(sickExample.runs, "MeaningFactory_run1primary.txt")) })
    expect(sick.outcome.verdict).toBe("scored")
    const sickDatasets = sick.html.slice(sick.html.indexOf("<h2>Datasets</h2>"), sick.html.indexOf("</table>", sick.html.indexOf("<h2>Datasets</h2>")))
    expect(sickDatasets).not.toMatch(/macro|z-scores|MSE \(z\)|F1/i)
  })

  it("one competition per language: another language's run file is said to belong to that competition, not 'did you mean' this one's", async () => {
    const edition = { ...semrel, datasets: semrel.datasets.map(({ pairs: _pairs, ...d }) => d) }
    const data = writeSemRel(path.join(work, "semrel-elsewhere"), edition, 12, ["amh", "eng"])
    const written = await run(Bundle.writeBundles({ task: edition, gold: data.gold, out: path.join(work, "semrel-elsewhere-bundles"), cliBundle: path.join(work, "stseval.mjs") }))
    const eng = written.find((w) => w.board.name === "eng")!
    for (const reference of ["reference_data_test"]) {
      const { outcome } = await score(eng.out, reference, { "pred_amh.csv": fs.readFileSync(path.join(data.run, "pred_amh.csv")) })
      expect(outcome.verdict).toBe("rejected")
      expect(outcome.reasons.join("\n")).toContain("pred_amh.csv is the run file of the amh competition, not of this one (eng: pred_eng.csv); submit it to the amh competition")
      expect(outcome.reasons.join("\n")).not.toContain("did you mean")
    }
    // a name of no competition still gets the nearest one
    const typo = await score(eng.out, "reference_data_test", { "pred_eng.cvs": fs.readFileSync(path.join(data.run, "pred_eng.csv")) })
    expect(typo.outcome.reasons.join("\n")).toContain("did you mean pred_eng.csv?")
  })

  it("fails with a SetupError, naming no server path, when the reference data is not a stseval task", async () => {
    const app = prepareApp(stsBundle, "reference_data_test", filesOf(sts.runs["Full"]))
    fs.rmSync(path.join(app.input, "ref", "stseval-task.json"))
    const error = await run(Effect.flip(ScoringProgram.scoreCodabench(app.input, app.output)))
    expect(error._tag).toBe("SetupError")
    expect(error.message).toContain("stseval-task.json")
    expect(error.message).not.toContain(app.app)
  })

  it("fails with a SetupError when the gold is broken (every submission would fail)", async () => {
    const app = prepareApp(stsBundle, "reference_data_test", filesOf(sts.runs["Full"]))
    fs.writeFileSync(path.join(app.input, "ref", "STS.gs.track1.ar-ar.txt"), "1\nnot a score\n")
    const error = await run(Effect.flip(ScoringProgram.scoreCodabench(app.input, app.output)))
    expect(error.message).toContain("tell the organisers")
    expect(error.message).toContain("ref/STS.gs.track1.ar-ar.txt:2")
    expect(error.message).not.toContain(app.app)
  })
})

describe("scoreCodabench: what cannot be read in res/ is the submission's problem, not the competition's", () => {
  /** The outcome of scoring a valid STS-B run beside one odd entry made by `plant` in res/. */
  const withOdd = async (plant: (res: string) => void) => {
    const files = { "sts-test.output.txt": fs.readFileSync(path.join(work, "stsb", "sts-test.output.txt")) }
    const app = prepareApp(stsbBundle, "reference_data_test", files)
    plant(path.join(app.input, "res"))
    // a setup error would fail this Effect (exit 2 for the worker); a rejection resolves
    const outcome = await run(ScoringProgram.scoreCodabench(app.input, app.output))
    return { outcome, html: fs.readFileSync(path.join(app.output, "detailed_results.html"), "utf8"), app }
  }

  it.skipIf(process.platform === "win32")("a FIFO: rejected, naming it by its path in the submission, without hanging", async () => {
    const { outcome, app } = await withOdd((res) => execFileSync("mkfifo", [path.join(res, "pipe.txt")]))
    expect(outcome.verdict).toBe("rejected")
    expect(outcome.reasons.join("\n")).toContain("pipe.txt: the file is a FIFO (named pipe), not a regular file")
    expect(outcome.reasons.join("\n")).not.toContain(app.app)
  })

  it.skipIf(process.platform === "win32")("a socket: rejected, naming it", async () => {
    const server = net.createServer()
    const { outcome } = await withOdd((res) => {
      server.listen(path.join(res, "sock"))
    }).finally(() => server.close())
    expect(outcome.verdict).toBe("rejected")
    expect(outcome.reasons.join("\n")).toMatch(/sock: the file is (a socket|not a regular file)/)
  })

  const noPython = (() => {
    try {
      execFileSync("python3", ["-c", "0"])
      return false
    } catch {
      return true
    }
  })()
  it.skipIf(noPython)("a folder 3,000 levels deep: rejected, saying how deep is read; no stack overflow, no path too long", async () => {
    const { outcome, html } = await withOdd((res) =>
      // one level at a time from inside (the whole path is longer than the system allows): python3's os.chdir
      execFileSync("python3", ["-c", "import os,sys\nos.chdir(sys.argv[1])\nfor _ in range(3000):\n    os.mkdir('d'); os.chdir('d')", res])
    )
    expect(outcome.verdict).toBe("rejected")
    expect(outcome.reasons.join("\n")).toContain("d/d/d/d/d/d/d/d: folders are nested more than 8 deep")
    expect(html).toContain("nested more than 8 deep")
  })
})
