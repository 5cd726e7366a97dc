/**
 * The pages a user opens, as a user makes them (issue 24): the HTML report, the live leaderboard
 * and Codabench's detailed results, for STS 2017 (the shared gold; runs made by the baseline and
 * from it) and SemRel 2024 track A (the shared gold and synthetic runs), rendered in headless
 * Chromium at 1,400 px and saved as PNG screenshots in `.screenshots/` (ignored by git) for a
 * person to look at. What can be asserted is: no run or team name is broken across lines, every
 * mark and colour a page uses has its legend line, a cell without a figure says which kind it is,
 * the plots name the edition's metric, the page makes no request. Skipped (with a warning) without
 * ../shared or Chromium.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { executablePath, hasChromium, launch } from "@stseval/vitest-config/browser"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { hasShared, repoRoot, runCli, shared } from "./support/cli.js"

if (!hasShared) console.warn("apps/cli screenshots.test.ts: ../shared is absent; the page screenshots are skipped")
if (!hasChromium) console.warn(`apps/cli screenshots.test.ts: ${executablePath} not found; the page screenshots are skipped`)

const shots = path.join(repoRoot, ".screenshots")
const tmp = scratchDir("shots")

const ok = async (args: ReadonlyArray<string>) => {
  const r = await runCli(args)
  if (r.code !== 0) throw new Error(`stseval ${args.join(" ")}: exit ${r.code}\n${r.stderr}${r.stdout}`)
  return r
}

const numbers = (file: string) => fs.readFileSync(file, "utf8").split("\n").filter((l) => l.trim() !== "").map(Number)

/** STS 2017 runs: the tokencos baseline (Alpha), two made from it with deterministic noise, one missing a track and with a broken one, one after the deadline. */
const sts2017Runs = async (folder: string) => {
  await ok(["baseline", "tokencos", "--task", "sts2017", "--input", path.join(shared, "data/sts2017/input"), "--out", folder, "--team", "Alpha"])
  const alpha = path.join(folder, "Alpha_run1primary")
  const derive = (name: string, noise: number, phase: number, meta?: object) => {
    const dir = path.join(folder, name)
    fs.mkdirSync(dir, { recursive: true })
    for (const file of fs.readdirSync(alpha)) {
      const xs = numbers(path.join(alpha, file)).map((x, i) => Math.min(5, Math.max(0, x + noise * Math.sin(i * phase + file.length))))
      fs.writeFileSync(path.join(dir, file), xs.map((x) => `${x.toFixed(4)}\n`).join(""))
    }
    if (meta !== undefined) fs.writeFileSync(path.join(dir, "run.json"), JSON.stringify(meta))
    return dir
  }
  derive("Beta_run1primary", 0.15, 12.9898)
  derive("Gamma_run2", 1.2, 78.233)
  const delta = derive("DeltaTeamWithALongName_run1primary", 0.4, 3.7)
  fs.rmSync(path.join(delta, "STS.output.track1.ar-ar.txt"))
  const broken = path.join(delta, "STS.output.track2.ar-en.txt")
  fs.writeFileSync(broken, fs.readFileSync(broken, "utf8").replace(/^[^\n]*\n[^\n]*\n[^\n]*\n[^\n]*/, (m) => m.replace(/[^\n]*$/, "abc")))
  derive("Late_run1", 0.05, 5.1, { team: "Late", run: 1, primary: true, postDeadline: true })
}

/** SemRel track A runs: the shared synthetic predictions (eng and amh) at three noise levels, and the organisers' baseline. */
const semrelRuns = async (folder: string) => {
  const from = path.join(shared, "data/runs/semrel2024-synthetic")
  for (const [team, sd] of [["Alpha", "0.05"], ["Beta", "0.15"], ["Gamma", "0.30"]] as const) {
    const dir = path.join(folder, `${team}_run1`)
    fs.mkdirSync(dir, { recursive: true })
    for (const lang of ["eng", "amh"]) fs.copyFileSync(path.join(from, `track-a-${lang}-sd${sd}`, `pred_${lang}.csv`), path.join(dir, `pred_${lang}.csv`))
  }
  await ok(["baseline", "lexical-overlap", "--task", "semrel2024-a", "--input", path.join(shared, "data/semrel2024/track-a"), "--out", folder])
}

/**
 * Codabench's scoring program on one run, as the compute worker runs it: its detailed_results.html.
 * `competition`: the bundle's folder of a task with one competition per dataset (SemRel: per language).
 */
const codabench = async (task: string, gold: string, files: ReadonlyArray<string>, name: string, competition = "") => {
  const bundle = path.join(tmp, `${name}-bundle`)
  const cli = path.join(tmp, "stseval.mjs")
  fs.writeFileSync(cli, "// not run here\n")
  await ok(["codabench", "bundle", "--task", task, "--gold", gold, "--out", bundle, "--cli", cli, "--live-test"])
  const input = path.join(tmp, `${name}-input`)
  fs.cpSync(path.join(bundle, competition, "reference_data_test"), path.join(input, "ref"), { recursive: true })
  fs.mkdirSync(path.join(input, "res"), { recursive: true })
  for (const f of files) fs.copyFileSync(f, path.join(input, "res", path.basename(f)))
  const output = path.join(tmp, `${name}-output`)
  await ok(["codabench", "score", input, output])
  return path.join(output, "detailed_results.html")
}

interface Looked {
  readonly file: string
  readonly png: string
  /** name cells whose text takes more than one line box */
  readonly broken: ReadonlyArray<string>
  /** the text of the cells of the result tables */
  readonly cells: ReadonlyArray<string>
  readonly hasBold: boolean
  readonly notes: string
  readonly requests: ReadonlyArray<string>
  readonly errors: ReadonlyArray<string>
  /** the page's width as laid out (wider than the window: the page scrolls sideways) */
  readonly width: number
  /** the width of the column of sentences (the leaderboard's Note), when the page has one */
  readonly proseWidth: number | undefined
}

type Doc = {
  querySelectorAll: (s: string) => ArrayLike<{ textContent: string | null; getClientRects: () => ArrayLike<unknown> }>
  querySelector: (s: string) => { getBoundingClientRect: () => { width: number } } | null
  documentElement: { scrollWidth: number }
}

const look = async (page: Page, file: string, png: string): Promise<Looked> => {
  const requests: Array<string> = []
  const errors: Array<string> = []
  const onRequest = (r: { url: () => string }) => requests.push(r.url())
  const onError = (e: Error) => errors.push(e.message)
  page.on("request", onRequest)
  page.on("pageerror", onError)
  await page.goto(pathToFileURL(file).href, { waitUntil: "load" })
  await page.screenshot({ path: path.join(shots, png), fullPage: true })
  // the page beside its picture, to open in a browser of one's own
  fs.copyFileSync(file, path.join(shots, png.replace(/\.png$/, ".html")))
  page.off("request", onRequest)
  page.off("pageerror", onError)
  const seen = await page.evaluate(() => {
    const doc = (globalThis as unknown as { document: Doc }).document
    const all = <T>(s: string, f: (e: { textContent: string | null; getClientRects: () => ArrayLike<unknown> }) => T) => Array.from(doc.querySelectorAll(s), f)
    return {
      // an inline element laid out on two lines has two client rects
      broken: all("td.name bdi", (e) => (e.getClientRects().length > 1 ? (e.textContent ?? "") : "")).filter((s) => s !== ""),
      cells: all("table.results td", (e) => (e.textContent ?? "").trim()),
      hasBold: doc.querySelectorAll("table.results strong").length > 0,
      notes: all(".notes p, .legend p", (e) => e.textContent ?? "").join("\n"),
      width: doc.documentElement.scrollWidth,
      proseWidth: doc.querySelector("table.results th.prose")?.getBoundingClientRect().width
    }
  })
  return { file, png, requests: requests.filter((u) => u !== pathToFileURL(file).href && !u.endsWith("version.js") && !/version\.js\?t=/.test(u)), errors, ...seen }
}

/** Every mark and colour the page's tables use has its legend line. */
const legendCovers = (p: Looked) => {
  const uses = (re: RegExp) => p.cells.some((c) => re.test(c))
  const missing: Array<string> = []
  const need = (used: boolean, line: RegExp, what: string) => {
    if (used && !line.test(p.notes)) missing.push(what)
  }
  need(uses(/\u2022/), /\u2022 best figure/, "• (best)")
  // "Bold:" or, with several rules in one table, "Bold in <columns>:" (issue 32)
  need(p.hasBold, /Bold( in [^:]+)?: not significantly different/, "bold (tied with the best)")
  need(uses(/\u2020/), /\u2020/, "† (post-deadline)")
  need(uses(/\u2248/), /\u2248/, "≈ (rank interval overlaps the best's)")
  need(uses(/^-$/), /^-: not submitted|- in a Rank column/m, "- (not submitted / not ranked)")
  need(uses(/^x$/), /^x: not scored/m, "x (not scored)")
  need(uses(/^n\/a$/), /^n\/a: scored, but the figure is undefined/m, "n/a (undefined)")
  return missing
}

describe.skipIf(!hasShared || !hasChromium)("the pages in headless Chromium, with screenshots in .screenshots/", () => {
  const pages = new Map<string, Looked>()
  let close: (() => Promise<void>) | undefined

  beforeAll(async () => {
    fs.mkdirSync(shots, { recursive: true })
    const stsSubs = path.join(tmp, "sts2017-subs")
    const semSubs = path.join(tmp, "semrel-subs")
    await sts2017Runs(stsSubs)
    await semrelRuns(semSubs)
    const stsGold = path.join(shared, "data/sts2017/gold")
    const semGold = path.join(shared, "data/semrel2024/track-a")

    const files: Array<[string, string]> = []
    // the report, with intervals (their glyphs and legend) and the heat maps
    for (const [name, task, gold, subs] of [["sts2017", "sts2017", stsGold, stsSubs], ["semrel", "semrel2024-a", semGold, semSubs]] as const) {
      const report = path.join(tmp, `${name}-report.html`)
      const r = await ok(["report", "--task", task, "--gold", gold, subs, "--format", "html", "--ci", "95", "--resamples", "200"])
      fs.writeFileSync(report, r.stdout)
      files.push([`${name}-report`, report])
      const board = path.join(tmp, `${name}-board`)
      await ok(["watch", "--task", task, "--gold", gold, subs, "--out", board, "--once", "--settle", "0"])
      files.push([`${name}-leaderboard`, path.join(board, "leaderboard.html")])
    }
    const beta = path.join(stsSubs, "Beta_run1primary")
    files.push(["sts2017-codabench", await codabench("sts2017", stsGold, fs.readdirSync(beta).map((f) => path.join(beta, f)), "sts2017")])
    files.push(["semrel-codabench", await codabench("semrel2024-a", semGold, [path.join(semSubs, "Alpha_run1", "pred_eng.csv")], "semrel", "eng")])

    const browser = await launch({ viewport: { width: 1400, height: 900 } })
    close = browser.close
    const page = await browser.context.newPage()
    for (const [name, file] of files) pages.set(name, await look(page, file, `${name}.png`))
  }, 300_000)
  afterAll(async () => {
    await close?.()
  })

  it("writes a PNG of each page", () => {
    expect([...pages.keys()].sort()).toEqual(["semrel-codabench", "semrel-leaderboard", "semrel-report", "sts2017-codabench", "sts2017-leaderboard", "sts2017-report"])
    for (const p of pages.values()) {
      const png = fs.readFileSync(path.join(shots, p.png))
      expect(png.subarray(1, 4).toString("latin1")).toBe("PNG")
      expect(p.errors).toEqual([])
      expect(p.requests).toEqual([])
    }
  })

  it("every page fits 1,400 px (a wide table scrolls on its own), and the leaderboard's Note column is not squeezed", () => {
    // before (issue 32): the STS 2017 board laid out 1,675 px wide, SemRel's 2,395, its Note column a word wide
    for (const [name, p] of pages) expect(p.width, name).toBeLessThanOrEqual(1400)
    for (const name of ["sts2017-leaderboard", "semrel-leaderboard"]) {
      // 28 characters at the table's font size (.9rem of 16 px, about 7 px a character) at least
      expect(pages.get(name)!.proseWidth, name).toBeGreaterThanOrEqual(28 * 7)
    }
  })

  it("no run or team name is broken across lines at 1,400 px", () => {
    for (const name of ["sts2017-report", "sts2017-leaderboard", "semrel-report", "semrel-leaderboard"]) {
      const p = pages.get(name)!
      expect(p.cells.length, name).toBeGreaterThan(0)
      expect(p.broken, name).toEqual([])
    }
  })

  it("every mark a table uses has its legend line, and the cells without a figure say which kind they are", () => {
    for (const name of ["sts2017-report", "sts2017-leaderboard", "semrel-report", "semrel-leaderboard"]) expect(legendCovers(pages.get(name)!), name).toEqual([])
    const report = pages.get("sts2017-report")!
    // Delta has no ar-ar file ("-"), a broken ar-en ("x") and so no Primary ("n/a"); Late is after the deadline (†)
    for (const used of ["-", "x", "n/a"]) expect(report.cells).toContain(used)
    expect(report.cells.some((c) => c.includes("\u2020"))).toBe(true)
    expect(report.hasBold).toBe(true)
    expect(report.notes).not.toMatch(/hover/i)
    // on the board too: a language a run did not enter is "-" (not submitted) in its ranking's figure and dataset columns
    const semBoard = pages.get("semrel-leaderboard")!
    expect(semBoard.cells).toContain("-")
    expect(semBoard.cells).not.toContain("n/a")
    expect(pages.get("sts2017-leaderboard")!.cells).toEqual(expect.arrayContaining(["-", "x", "n/a"]))
    // the interval glyph is drawn and explained
    expect(report.notes).toMatch(/hollow diamond is the figure, the whisker its interval/)
  })

  it("the plots and captions name the edition's metric", () => {
    const sem = fs.readFileSync(pages.get("semrel-report")!.file, "utf8")
    expect(sem).toMatch(/<figcaption dir="auto">[^<]*\(rho = 0\.\d{3}\)/)
    expect(sem).not.toMatch(/<figcaption dir="auto">[^<]*\(r = /)
    // Codabench: the dataset's figures by the metrics' symbols; the plot of a secret gold is the run's own histogram
    const cb = fs.readFileSync(pages.get("semrel-codabench")!.file, "utf8")
    expect(cb).toMatch(/<td>rho 0\.\d{3}, r 0\.\d{3}<\/td>/)
    expect(cb).toMatch(/aria-label="eng: your 2600 scores"/)
    const sts = fs.readFileSync(pages.get("sts2017-codabench")!.file, "utf8")
    // a test page shows the leaderboard's figures only: STS 2017's per-track Pearson, no Spearman beside it (issue 30)
    expect(sts).toMatch(/<td>r \d+\.\d{2}<\/td>/)
    expect(sts).not.toMatch(/rho \d/)
    for (const p of pages.values()) expect(fs.readFileSync(p.file, "utf8")).not.toMatch(/>-0(\.0+)?</)
  })
})
