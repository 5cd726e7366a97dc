/**
 * The check page (`stseval page check`, issue 37) in headless Chromium: for SICK, the made-up task,
 * STS 2017 and SemRel track A, good, broken, misnamed and zipped runs dropped on the page give
 * exactly the text `stseval validate` and `stseval score --ci 95` print, and the figures of
 * `score --ci 95 --json` to 1e-12; a 50 MB run is scored with the page answering and its progress
 * bar moving; a zip bomb is refused with the CLI's message; and the browser requests nothing but
 * the page itself and its own worker. One browser for the file. Skipped (with a warning) without
 * Chromium; STS 2017 and SemRel also without ../shared.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { executablePath, hasChromium, launch } from "@stseval/vitest-config/browser"
import { zipSync } from "fflate"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { builtCli } from "./support/built.js"
import { examples, hasShared, runCli, shared } from "./support/cli.js"

if (!hasChromium) console.warn(`apps/cli page-check.test.ts: ${executablePath} not found; the check page's browser tests are skipped`)
if (!hasShared) console.warn("apps/cli page-check.test.ts: ../shared is absent; the check page's STS 2017 and SemRel cases are skipped")

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-page-"))
let browser: Awaited<ReturnType<typeof launch>> | undefined
/** Every URL the browser asked for, over the whole file. */
const requests: Array<string> = []

beforeAll(async () => {
  if (hasChromium) browser = await launch()
}, 60_000)
afterAll(async () => {
  await browser?.close()
  fs.rmSync(tmp, { recursive: true, force: true })
})

interface Checked {
  readonly validate: string
  readonly score: string
  readonly json: unknown
  readonly state: string
}

/** Write the page for `task` (and `gold`) with the CLI itself. */
const writePage = async (name: string, task: string, gold: string | undefined, more: ReadonlyArray<string> = []): Promise<string> => {
  const out = path.join(tmp, `${name}.html`)
  const r = await runCli(["page", "check", "--task", task, ...(gold !== undefined ? ["--gold", gold] : []), "--out", out, ...more])
  if (r.code !== 0) throw new Error(`page check: exit ${r.code}\n${r.stderr}${r.stdout}`)
  return out
}

/** SICK's page with the example's gold, written once for the tests that use it. */
let sick: Promise<string> | undefined
const sickPage = (): Promise<string> => (sick ??= writePage("sick", "sick2014", path.join(examples, "sick2014/SICK_test_annotated.txt")))

const open = async (html: string): Promise<Page> => {
  const page = await browser!.context.newPage()
  page.on("request", (r) => requests.push(r.url()))
  await page.goto(pathToFileURL(html).href)
  await page.waitForFunction(() => document.body.dataset["state"] === "idle")
  return page
}

/** Drop `paths` on the page (files through the file input, one folder through the folder input) and wait for its answer. */
const drop = async (page: Page, paths: ReadonlyArray<string>, input: "#files" | "#folder" = "#files"): Promise<Checked> => {
  await page.evaluate(() => (document.body.dataset["state"] = "idle"))
  await page.setInputFiles(input, [...paths])
  await page.waitForFunction(() => ["done", "failed"].includes(document.body.dataset["state"] ?? ""), null, { timeout: 120_000 })
  return page.evaluate(() => ({
    validate: document.getElementById("validate")!.textContent ?? "",
    score: document.getElementById("score")!.textContent ?? "",
    json: (globalThis as { stsevalChecked?: { json: unknown } }).stsevalChecked?.json,
    state: document.body.dataset["state"] ?? ""
  }))
}

/**
 * The CLI's output as the page names things: run paths from the folder they were dropped from, the
 * gold's from the folder holding it (the page holds it in `/.gold/`), the gold line aside.
 */
const asDropped = (text: string, dir: string, goldDir = "/.gold"): string =>
  [`${dir}${path.sep}`, `${goldDir}${path.sep}`, "/.gold/"]
    .reduce((t, prefix) => t.split(prefix).join(""), text)
    .replace(/^gold: .*$/m, "gold: <gold>")
    .trimEnd()

const cli = async (args: ReadonlyArray<string>) => (await runCli(args)).stdout

/** `a` and `b` equal: numbers to 1e-12, strings once paths are as dropped. */
const expectClose = (a: unknown, b: unknown, dir: string, goldDir: string, at = "$"): void => {
  if (typeof a === "number" && typeof b === "number") {
    if (Number.isNaN(a) || Number.isNaN(b)) expect(Number.isNaN(a), at).toBe(Number.isNaN(b))
    else expect(Math.abs(a - b), `${at}: ${a} vs ${b}`).toBeLessThanOrEqual(1e-12)
  } else if (typeof a === "string" && typeof b === "string") {
    // where the gold was read from: the organiser's path in the CLI, its name in the page
    if (at === "$.gold.path") return
    expect(asDropped(a, dir, goldDir), at).toBe(asDropped(b, dir, goldDir))
  } else if (Array.isArray(a) && Array.isArray(b)) {
    expect(a.length, at).toBe(b.length)
    a.forEach((x, i) => expectClose(x, b[i], dir, goldDir, `${at}[${i}]`))
  } else if (a !== null && b !== null && typeof a === "object" && typeof b === "object") {
    expect(Object.keys(a).sort(), at).toEqual(Object.keys(b).sort())
    for (const k of Object.keys(a)) expectClose((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], dir, goldDir, `${at}.${k}`)
  } else expect(a, at).toEqual(b)
}

/** Drop `runs` (all in `dir`) on the page and check its text and figures against the CLI's on the same runs. */
const sameAsCli = async (page: Page, task: string, gold: string, dir: string, runs: ReadonlyArray<string>, input: "#files" | "#folder" = "#files") => {
  const paths = runs.map((r) => path.join(dir, r))
  const checked = await drop(page, input === "#folder" ? [dir] : paths, input)
  const base = ["--task", task, "--gold", gold]
  // a folder dropped through the folder input is a submissions folder to the CLI too
  const given = input === "#folder" ? [dir] : paths
  const from = input === "#folder" ? path.dirname(dir) : dir
  const goldDir = path.dirname(gold)
  expect(asDropped(checked.validate, from)).toBe(asDropped(await cli(["validate", ...base, ...given]), from, goldDir))
  expect(asDropped(checked.score, from)).toBe(asDropped(await cli(["score", ...base, "--ci", "95", ...given]), from, goldDir))
  expectClose(checked.json, JSON.parse(await cli(["score", ...base, "--ci", "95", "--json", ...given])), from, goldDir)
  return checked
}

/** `run` (in `dir`) dropped on the SICK page and refused with `message`: the page's words are `stseval validate`'s. */
const refusedAsCli = async (dir: string, run: string, message: string) => {
  const page = await open(await sickPage())
  const checked = await drop(page, [run])
  expect(checked.validate).toContain(message)
  expect(asDropped(checked.validate, dir)).toBe(asDropped(await cli(["validate", "--task", "sick2014", "--gold", path.join(examples, "sick2014/SICK_test_annotated.txt"), run]), dir))
  await page.close()
}

describe.skipIf(!hasChromium)("the check page equals the CLI", () => {
  it("SICK: a good run, a broken one, a misnamed one and a zipped one", async () => {
    const gold = path.join(examples, "sick2014/SICK_test_annotated.txt")
    const dir = path.join(tmp, "sick")
    fs.mkdirSync(dir)
    const from = path.join(examples, "sick2014/submissions")
    fs.copyFileSync(path.join(from, "MeaningFactory_run1primary.txt"), path.join(dir, "MeaningFactory_run1primary.txt"))
    // Insight_run2.txt is the example's malformed run
    fs.copyFileSync(path.join(from, "Insight_run2.txt"), path.join(dir, "Insight_run2.txt"))
    fs.copyFileSync(path.join(from, "Insight_run1primary.txt"), path.join(dir, "insight first try.txt"))
    fs.writeFileSync(path.join(dir, "Zipped_run1.zip"), zipSync({ "Zipped_run1.txt": fs.readFileSync(path.join(from, "MeaningFactory_run2.txt")) }))
    const page = await open(await sickPage())
    const checked = await sameAsCli(page, "sick2014", gold, dir, ["MeaningFactory_run1primary.txt", "Insight_run2.txt", "insight first try.txt", "Zipped_run1.zip"])
    // what the runs are known to hold, so that equal outputs are not equally empty
    expect(checked.validate).toMatch(/Insight_run2\.txt:\d+: error/)
    expect(checked.validate).toContain('the run name "insight first try.txt" does not follow Team_runN')
    expect(checked.score).toMatch(/pearson 0\.\d{3} \[0\.\d{3}, 0\.\d{3}\]/)
    // dropped rather than chosen: the same answer
    await page.evaluate(() => (document.body.dataset["state"] = "idle"))
    const bytes = [...fs.readFileSync(path.join(dir, "Insight_run2.txt"))]
    await page.evaluate((content) => {
      const transfer = new DataTransfer()
      transfer.items.add(new File([new Uint8Array(content)], "Insight_run2.txt"))
      document.getElementById("drop")!.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }))
    }, bytes)
    await page.waitForFunction(() => document.body.dataset["state"] === "done")
    const dropped = (await page.textContent("#validate")) ?? ""
    expect(dropped).toMatch(/Insight_run2\.txt:\d+: error/)
    expect(dropped).not.toContain("MeaningFactory")
    await page.close()
  }, 240_000)

  it("the made-up task (a user edition file): good, broken and misnamed runs", async () => {
    const task = path.join(examples, "made-up-task/edition.yaml")
    const gold = path.join(examples, "made-up-task/gold.csv")
    const dir = path.join(tmp, "made-up")
    fs.mkdirSync(dir)
    const from = path.join(examples, "made-up-task/submissions")
    fs.copyFileSync(path.join(from, "Aurora_run1primary.csv"), path.join(dir, "Aurora_run1primary.csv"))
    const lines = fs.readFileSync(path.join(from, "Borealis_run1primary.csv"), "utf8").split("\n")
    lines[3] = "p-unknown,not a number"
    fs.writeFileSync(path.join(dir, "Borealis_run1primary.csv"), lines.join("\n"))
    fs.copyFileSync(path.join(from, "Cirrus_run1primary.csv"), path.join(dir, "cirrus.csv"))
    const page = await open(await writePage("made-up", task, gold))
    const checked = await sameAsCli(page, task, gold, dir, ["Aurora_run1primary.csv", "Borealis_run1primary.csv", "cirrus.csv"])
    expect(checked.validate).toMatch(/Borealis_run1primary\.csv:4: error/)
    expect(checked.score).toContain("kendall")
    await page.close()
  }, 240_000)

  it.skipIf(!hasShared)("STS 2017: a submissions folder of a good run, a broken one and a misnamed file", async () => {
    const gold = path.join(shared, "data/sts2017/gold")
    const subs = path.join(tmp, "sts2017-subs")
    const synthetic = path.join(shared, "data/runs/sts-synthetic/sts2017")
    const run = (name: string) => {
      const d = path.join(subs, name)
      fs.mkdirSync(d, { recursive: true })
      for (const f of fs.readdirSync(synthetic)) fs.copyFileSync(path.join(synthetic, f), path.join(d, f))
      return d
    }
    run("Good_run1primary")
    const broken = path.join(run("Broken_run1primary"), "STS.output.track5.en-en.txt")
    fs.writeFileSync(broken, fs.readFileSync(broken, "utf8").replace(/^[^\n]*/, "abc"))
    const misnamed = run("Misnamed_run1primary")
    fs.renameSync(path.join(misnamed, "STS.output.track1.ar-ar.txt"), path.join(misnamed, "STS.output.ar-ar.txt"))
    const page = await open(await writePage("sts2017", "sts2017", gold))
    const checked = await sameAsCli(page, "sts2017", gold, subs, [], "#folder")
    expect(checked.validate).toMatch(/STS\.output\.track5\.en-en\.txt:1: error/)
    expect(checked.validate).toContain("STS.output.ar-ar.txt")
    await page.close()
  }, 240_000)

  it.skipIf(!hasShared)("SemRel track A: good, broken and misnamed runs", async () => {
    const gold = path.join(shared, "data/semrel2024/track-a")
    const dir = path.join(tmp, "semrel")
    fs.mkdirSync(dir)
    const from = path.join(shared, "data/runs/semrel2024-synthetic")
    const zipOf = (files: Record<string, string>) => zipSync(Object.fromEntries(Object.entries(files).map(([n, f]) => [n, fs.readFileSync(f)])))
    fs.writeFileSync(path.join(dir, "Good_run1primary.zip"), zipOf({ "pred_eng.csv": path.join(from, "track-a-eng-sd0.05/pred_eng.csv"), "pred_amh.csv": path.join(from, "track-a-amh-sd0.05/pred_amh.csv") }))
    const eng = fs.readFileSync(path.join(from, "track-a-eng-sd0.15/pred_eng.csv"), "utf8").split("\n")
    eng[2] = eng[2].replace(/,[^,]*$/, ",high")
    fs.writeFileSync(path.join(tmp, "pred_eng.csv"), eng.join("\n"))
    fs.writeFileSync(path.join(dir, "Broken_run1primary.zip"), zipOf({ "pred_eng.csv": path.join(tmp, "pred_eng.csv") }))
    fs.writeFileSync(path.join(dir, "Misnamed_run1primary.zip"), zipOf({ "predictions_eng.csv": path.join(from, "track-a-eng-sd0.30/pred_eng.csv") }))
    const page = await open(await writePage("semrel", "semrel2024-a", gold))
    const checked = await sameAsCli(page, "semrel2024-a", gold, dir, ["Good_run1primary.zip", "Broken_run1primary.zip", "Misnamed_run1primary.zip"])
    expect(checked.validate).toContain("Broken_run1primary.zip!pred_eng.csv:3")
    expect(checked.validate).toContain("predictions_eng.csv")
    await page.close()
  }, 240_000)
})

describe.skipIf(!hasChromium)("the check page: its limits, without gold, in a Codabench starting kit, and no request", () => {
  it("a 50 MB run is scored in the worker: the page answers meanwhile and its progress bar moves", async () => {
    const dir = path.join(tmp, "big")
    fs.mkdirSync(dir)
    const langs = ["en_en", "de_en", "es_es"]
    const n = 5000
    const gold = ["pair_id,lang_pair,text1,text2,overall", ...Array.from({ length: n }, (_, i) => `p${i},${langs[i % 3]},a,b,${1 + ((i * 7) % 7) / 2}`)]
    fs.writeFileSync(path.join(dir, "gold.csv"), `${gold.join("\n")}\n`)
    // 10,000 characters of a column the format does not read, on every line: 50 MB
    const note = "x".repeat(10_000)
    const run = ["pair_id,overall,note", ...Array.from({ length: n }, (_, i) => `p${i},${(1 + ((i * 13) % 31) / 10).toFixed(2)},${note}`)]
    const big = path.join(dir, "Big_run1primary.csv")
    fs.writeFileSync(big, `${run.join("\n")}\n`)
    expect(fs.statSync(big).size).toBeGreaterThan(50_000_000)
    const page = await open(await writePage("big", path.join(examples, "made-up-task/edition.yaml"), path.join(dir, "gold.csv")))
    await page.evaluate(() => (document.body.dataset["state"] = "idle"))
    await page.setInputFiles("#files", [big])
    // the main thread answers while the worker scores: each evaluate returns with the check still under way
    const seen: Array<{ readonly state: string; readonly value: number }> = []
    for (;;) {
      const now = await page.evaluate(() => ({ state: document.body.dataset["state"] ?? "", value: (document.getElementById("progress") as HTMLProgressElement).value }))
      seen.push(now)
      if (now.state === "done" || now.state === "failed") break
      await page.waitForTimeout(20)
    }
    expect(seen.at(-1)).toEqual({ state: "done", value: 1 })
    expect(seen.some((s) => s.state === "checking" && s.value > 0 && s.value < 1)).toBe(true)
    expect(await page.textContent("#validate")).toContain("1 run(s): all valid")
    expect(await page.textContent("#score")).toMatch(/en_en\s+\d+\s+kendall/)
    await page.close()
    // the same run under a budget it cannot keep (`--time-budget`, as `score` takes it): stopped, said so
    const strict = await open(await writePage("big-strict", path.join(examples, "made-up-task/edition.yaml"), path.join(dir, "gold.csv"), ["--time-budget", "0.05"]))
    const stopped = await drop(strict, [big])
    expect(stopped.state).toBe("failed")
    expect(stopped.validate).toContain("over the time budget: reading and checking took longer than 0.05 s (the CLI's 0.05 s per run")
    await strict.close()
  }, 240_000)

  it("a run file over the CLI's 256 MiB is not read, and refused with the CLI's message", async () => {
    const dir = path.join(tmp, "huge")
    fs.mkdirSync(dir)
    // a sparse file: 300 MB on the file system, nothing on the disk; neither reads it
    const huge = path.join(dir, "Huge_run1primary.txt")
    fs.closeSync(fs.openSync(huge, "w"))
    fs.truncateSync(huge, 300 * 1024 * 1024)
    await refusedAsCli(dir, huge, "more than the limit of 268435456 bytes")
  }, 120_000)

  it("a zip bomb is refused at the CLI's limit, with the CLI's message", async () => {
    const dir = path.join(tmp, "bomb")
    fs.mkdirSync(dir)
    // 40 MiB of one byte: unpacks past the 32 MiB a run's zip may (Submissions' limit), packs to kilobytes
    const bomb = path.join(dir, "Bomb_run1primary.zip")
    fs.writeFileSync(bomb, zipSync({ "Bomb_run1primary.txt": new Uint8Array(40 * 1024 * 1024).fill(0x31) }))
    await refusedAsCli(dir, bomb, "unpacks to more than 33554432 bytes")
  }, 120_000)

  it("without gold: each run's name, packaging and files, as the scorer reads them", async () => {
    const dir = path.join(tmp, "no-gold")
    fs.mkdirSync(dir)
    const from = path.join(examples, "sick2014/submissions")
    fs.copyFileSync(path.join(from, "MeaningFactory_run1primary.txt"), path.join(dir, "MeaningFactory_run1primary.txt"))
    fs.writeFileSync(path.join(dir, "Two_run1.zip"), zipSync({ "a.txt": fs.readFileSync(path.join(from, "Insight_run2.txt")), "b.txt": fs.readFileSync(path.join(from, "Insight_run2.txt")) }))
    const page = await open(await writePage("no-gold", "sick2014", undefined))
    const checked = await drop(page, [path.join(dir, "MeaningFactory_run1primary.txt"), path.join(dir, "Two_run1.zip")])
    expect(checked.state).toBe("done")
    expect(checked.validate).toContain("files: MeaningFactory_run1primary.txt")
    // Submissions' own message for a one-file edition's zip of two files
    expect(checked.validate).toContain("a run of sick2014 is one file, but this zip holds 2: a.txt, b.txt")
    expect(checked.validate).toContain("2 run(s): 1 with errors")
    expect(checked.score).toContain("No gold is embedded in this page")
    await page.close()
  }, 120_000)

  it.skipIf(!hasShared)("codabench bundle: the development phase's starting kit is the page with the development gold, and the Submitting page says how to use it", async () => {
    const out = path.join(tmp, "semrel-codabench")
    const gold = path.join(shared, "data/semrel2024/track-a")
    const r = await runCli(["codabench", "bundle", "--task", "semrel2024-a", "--gold", gold, "--dev-gold", gold, "--leaderboard", "eng", "--out", out, "--cli", await builtCli()])
    expect(r.code, r.stderr).toBe(0)
    expect(fs.readFileSync(path.join(out, "competition.yaml"), "utf8")).toMatch(/starting_kit: starting_kit_dev/)
    expect(fs.readFileSync(path.join(out, "pages/submitting.md"), "utf8")).toContain("open `check.html` in a browser")
    const page = await open(path.join(out, "starting_kit_dev/check.html"))
    const dir = path.join(tmp, "semrel-dev")
    fs.mkdirSync(dir)
    // a run for the development pairs (their IDs start the gold's records; texts may span lines)
    const ids = [...fs.readFileSync(path.join(gold, "eng/eng_dev_with_labels.csv"), "utf8").matchAll(/^(ENG-dev-\d+),/gm)].map((m) => m[1])
    expect(ids.length).toBeGreaterThan(100)
    fs.writeFileSync(path.join(dir, "pred_eng.csv"), ["PairID,Pred_Score", ...ids.map((id, i) => `${id},${((i * 37) % 100) / 100}`)].join("\n"))
    fs.writeFileSync(path.join(dir, "Dev_run1primary.zip"), zipSync({ "pred_eng.csv": fs.readFileSync(path.join(dir, "pred_eng.csv")) }))
    const checked = await drop(page, [path.join(dir, "Dev_run1primary.zip")])
    expect(checked.validate).toContain("1 run(s): all valid")
    expect(checked.score).toMatch(/eng\s+\d+\s+spearman -?0\.\d{3} \[-?0\.\d{3}, -?0\.\d{3}\]/)
    await page.close()
  }, 240_000)

  it("the browser asked for nothing but the pages and their own workers", async () => {
    // (run alone, a page is opened here, so that there is something to look at)
    if (requests.length === 0) await (await open(await sickPage())).close()
    expect(requests.length).toBeGreaterThan(0)
    expect(requests.filter((u) => !u.startsWith("file://") && !u.startsWith("blob:"))).toEqual([])
  })
})
