/**
 * Issue 35's closing figures: for STS-B leaderboards of 10, 100 and 300 runs ranked by Spearman (a
 * user edition: STS-B with `metric: spearman`; the public test gold from ../shared, its first
 * BOLD_PAIRS pairs (default all 1,379), runs = the gold plus seeded uniform noise of sd 0.5 to 1.0
 * across the runs, so that many are close to the best), how many runs
 * each output bolds (report, rank --marks, significance with its defaults, the live leaderboard)
 * beside an independent paired bootstrap with Holm (`boldByBootstrap` of
 * @stseval/vitest-config/reference: its own generator, Spearman re-ranked per resample, p by the
 * normal approximation; and, for the record, the shift p-value with 1,000 and with enough
 * resamples, 20 x comparisons / alpha, at 10 runs). A script, not a test: it takes minutes.
 *
 *   node_modules/.bin/tsx --conditions=@stseval/source apps/cli/bench/bold-counts.ts [sizes...]
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { mulberry32 } from "@stseval/vitest-config/random"
import { boldByBootstrap } from "@stseval/vitest-config/reference"
import { runInProcess } from "../src/Main.js"

const shared = process.env["STSEVAL_SHARED"] ?? path.resolve(import.meta.dirname, "../../../../shared")
const goldFile = path.join(shared, "data/stsbenchmark/sts-test.csv")
if (!fs.existsSync(goldFile)) {
  console.error(`bold-counts: ${goldFile} not found (the public STS-B gold in ../shared)`)
  process.exit(1)
}
const sizes = process.argv.slice(2).map(Number).filter((x) => x > 1)
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-bold-counts-"))

const cli = async (args: ReadonlyArray<string>): Promise<string> => {
  let out = ""
  let err = ""
  const code = await runInProcess(args, { stdout: (s) => (out += s), stderr: (s) => (err += s), env: { ...process.env, COLUMNS: undefined } })
  if (code !== 0) throw new Error(`stseval ${args.join(" ")}: exit ${code}: ${err.slice(0, 500)}`)
  return out
}

const lines = fs.readFileSync(goldFile, "utf8").split("\n").filter((l) => l.trim() !== "").slice(0, Number(process.env["BOLD_PAIRS"] ?? 1e9))
const gold = lines.map((l) => Number(l.split("\t")[4]))
const subset = path.join(tmp, "sts-test.csv")
fs.writeFileSync(subset, lines.map((l) => `${l}\n`).join(""))
const tasks = JSON.parse(await cli(["tasks", "--json"])) as ReadonlyArray<Record<string, unknown> & { id: string; ranking: Array<Record<string, unknown>> }>
const stsb = tasks.find((e) => e.id === "stsb")!
const editionFile = path.join(tmp, "stsb-spearman.json")
fs.writeFileSync(editionFile, JSON.stringify({ ...stsb, datasets: (stsb["datasets"] as Array<object>).map((d) => ({ ...d, pairs: gold.length })), id: "stsb-spearman", title: "STS-B ranked by Spearman", ranking: stsb.ranking.map((r) => ({ ...r, metric: "spearman", report: ["spearman"] })), published: { style: "r100" } }))

const rows: Array<string> = []
for (const size of sizes.length > 0 ? sizes : [10, 100, 300]) {
  const next = mulberry32(size)
  const runs = Array.from({ length: size }, (_, k) => {
    const sd = 0.5 + (0.5 * k) / Math.max(1, size - 1)
    return gold.map((g) => g + sd * Math.sqrt(12) * (next() - 0.5))
  })
  const folder = path.join(tmp, `runs-${size}`)
  fs.mkdirSync(folder)
  const team = (k: number) => `T${String(k).padStart(3, "0")}`
  runs.forEach((r, k) => fs.writeFileSync(path.join(folder, `${team(k)}_run1primary.txt`), r.map((x) => `${x.toFixed(6)}\n`).join("")))
  const common = ["--task", editionFile, "--gold", subset, folder]
  const t0 = Date.now()
  const report = JSON.parse(await cli(["report", ...common, "--format", "json"])) as { tables: Array<{ sections: Array<{ rows: Array<{ cells: Record<string, { marks: Array<string> }> }> }> }> }
  const reportBold = report.tables[0].sections.flatMap((s) => s.rows).filter((r) => Object.values(r.cells).some((c) => c.marks.includes("tied"))).length
  const rank = JSON.parse(await cli(["rank", ...common, "--marks", "--json"])) as { marks: Array<{ ranking: string; tied: Array<string> }> }
  const rankBold = rank.marks.find((m) => m.ranking === "official")!.tied.length
  const sig = JSON.parse(await cli(["significance", ...common, "--json"])) as { tests: Array<{ runs: Array<{ bold: boolean }> }> }
  const sigBold = sig.tests[0].runs.filter((r) => r.bold).length
  const out = path.join(tmp, `board-${size}`)
  await cli(["watch", ...common, "--out", out, "--once"])
  const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as { marks: Array<{ ranking: string; tied: Array<string> }> }
  const boardBold = board.marks.find((m) => m.ranking === "official")!.tied.length
  const outputs = (Date.now() - t0) / 1000
  console.error(`${size}: outputs ${reportBold} ${rankBold} ${sigBold} ${boardBold} in ${outputs.toFixed(0)} s`)
  const t1 = Date.now()
  const ref = boldByBootstrap(gold, runs, { metric: "spearman", resamples: 1000, seed: 7 }).tied.length
  console.error(`${size}: outputs ${reportBold} ${rankBold} ${sigBold} ${boardBold}, reference ${ref}`)
  const refTime = (Date.now() - t1) / 1000
  const shift1000 = size <= 100 ? boldByBootstrap(gold, runs, { metric: "spearman", resamples: 1000, seed: 7, shift: true }).tied.length : undefined
  const enough = Math.ceil((20 * (size - 1)) / 0.05)
  const shiftEnough = size <= 10 ? boldByBootstrap(gold, runs, { metric: "spearman", resamples: enough, seed: 7, shift: true }).tied.length : undefined
  rows.push(`| ${size} | ${reportBold} | ${rankBold} | ${sigBold} | ${boardBold} | ${ref} | ${shift1000 ?? "-"} | ${shiftEnough ?? "-"}${shiftEnough !== undefined ? ` (${enough.toLocaleString("en-US")})` : ""} | ${outputs.toFixed(0)} s / ${refTime.toFixed(0)} s |`)
  console.error(rows[rows.length - 1])
}
console.log("| runs | report | rank --marks | significance | leaderboard | reference (normal p, 1,000) | reference shift p, 1,000 | reference shift p, 20 m / alpha resamples | time: 4 outputs / reference |")
console.log("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
for (const r of rows) console.log(r)
fs.rmSync(tmp, { recursive: true, force: true })
