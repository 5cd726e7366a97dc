/**
 * The consistency check of consistency-*.test.ts. Decided once, read everywhere: for every built-in
 * edition, one folder of runs (a good run, two noisier ones, a tie, a post-deadline run and a failed
 * run) through `rank --json`,
 * `report --format json`, `watch --once`'s leaderboard.json and `codabench score` (one submission
 * at a time, as Codabench's worker runs it). Every output must give the same ranks, the same
 * official figures and the same marks (post-deadline dagger; the tied-with-best bold of the report
 * and of the board), and a failed run is never ranked (Codabench: no scores.json, exit 1).
 *
 * The runs are made from the data in ../shared (the token-cosine baseline on each edition's public
 * input, then perturbed); SICK's come with the repository. Without ../shared only SICK runs.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { CompetitionYaml } from "@stseval/codabench"
import { Registry } from "@stseval/formats"
import { Style } from "@stseval/scoring"
import { backdate, examples, hasShared, runCli, shared } from "./cli.js"

const dataRoot = path.join(shared, "data")
const sickGold = path.join(examples, "sick2014/SICK_test_annotated.txt")

/** The built-in editions with public gold in ../shared (STS 2014's Spanish data is not public there). */
const withoutPublicGold = new Set(["sts2014-es"])
export const editions = Registry.builtinIds.filter((id) => !withoutPublicGold.has(id) && (id === "sick2014" || hasShared))
if (!hasShared) console.warn("consistency: ../shared/data not found: only sick2014 is checked (CI has ../shared)")

// ---------------------------------------------------------------------------------------------
// Runs

/** Every regular file of a run (a file, or a folder's files), run.json aside. */
const filesOf = (run: string): ReadonlyArray<string> =>
  fs.statSync(run).isDirectory() ? fs.readdirSync(run).filter((f) => f !== "run.json").map((f) => path.join(run, f)) : [run]

const NUMBER_AT_END = /^(.*[\t,])?(-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)$/

/** A copy of a run whose last numeric field of every line is changed by `f(value, line)`. */
const transformed = (from: string, to: string, f: (value: number, line: number) => string) => {
  const write = (src: string, dst: string) => {
    const lines = fs.readFileSync(src, "utf8").split("\n")
    fs.writeFileSync(
      dst,
      lines
        .map((l, i) => {
          const m = NUMBER_AT_END.exec(l.replace(/\r$/, ""))
          return m === null ? l : `${m[1] ?? ""}${f(Number(m[2]), i)}`
        })
        .join("\n")
    )
  }
  if (fs.statSync(from).isDirectory()) {
    fs.mkdirSync(to, { recursive: true })
    for (const file of filesOf(from)) write(file, path.join(to, path.basename(file)))
  } else write(from, to)
}

/** Deterministic noise in [-0.5, 0.5) per line. */
const noise = (line: number) => ((Math.imul(line + 1, 2654435761) >>> 0) % 1000) / 1000 - 0.5

/** The run of `team` beside `run`: the same layout (file or folder) under another name. */
const sibling = (run: string, team: string) => path.join(path.dirname(run), path.basename(run).replace(/^[^_]+_run1primary/, `${team}_run1primary`))

/**
 * The folder of runs of an edition: Good (a real run), Noisy and Noisier (perturbed), Twin (Noisy
 * again: a tie), Late (Good, sent after the deadline: run.json) and Broken (a number that is not one).
 */
const makeFolder = async (tmp: string, edition: Registry.TaskEdition): Promise<string> => {
  const folder = path.join(tmp, edition.id, "submissions")
  fs.mkdirSync(folder, { recursive: true })
  let good: string
  if (edition.id === "sick2014") {
    good = path.join(folder, "Good_run1primary.txt")
    fs.copyFileSync(path.join(examples, "sick2014/submissions/MeaningFactory_run1primary.txt"), good)
  } else {
    const made = await runCli(["baseline", "tokencos", "--task", edition.id, "--data-root", dataRoot, "--out", folder, "--team", "Good"])
    expect(made.code, made.stderr).toBe(0)
    good = path.join(folder, fs.readdirSync(folder)[0])
  }
  const range = edition.scale.max - edition.scale.min
  transformed(good, sibling(good, "Noisy"), (v, i) => String(v + 0.3 * range * noise(i)))
  transformed(good, sibling(good, "Noisier"), (v, i) => String(v + 0.8 * range * noise(i * 7 + 3)))
  transformed(good, sibling(good, "Twin"), (v, i) => String(v + 0.3 * range * noise(i)))
  // a copy of the best run, sent after the deadline: it would tie for first, and takes no rank
  const late = path.join(folder, "Late_run1")
  fs.mkdirSync(late)
  for (const file of filesOf(good)) fs.copyFileSync(file, path.join(late, path.basename(file)))
  fs.writeFileSync(path.join(late, "run.json"), JSON.stringify({ primary: true, postDeadline: true }))
  // every file's second line a word where a record belongs: nothing of it can be scored
  const broken = sibling(good, "Broken")
  if (fs.statSync(good).isDirectory()) fs.mkdirSync(broken)
  for (const file of filesOf(good)) {
    const lines = fs.readFileSync(file, "utf8").split("\n")
    lines[1] = "oops"
    fs.writeFileSync(fs.statSync(good).isDirectory() ? path.join(broken, path.basename(file)) : broken, lines.join("\n"))
  }
  // sent a minute ago: watch --once scores them without waiting for them to settle
  backdate(folder)
  return folder
}

// ---------------------------------------------------------------------------------------------
// What each output says

interface Standing {
  readonly rank: number | null
  readonly value: number | null
  readonly postDeadline: boolean
}
type Rankings = ReadonlyMap<string, ReadonlyMap<string, Standing>>

interface EntryJson {
  readonly id: string
  readonly rank: number | null
  readonly value: number | null
  readonly postDeadline: boolean
}

const rankingsOf = (rankings: ReadonlyArray<{ readonly ranking: string; readonly entries: ReadonlyArray<EntryJson> }>): Rankings =>
  new Map(rankings.map((r) => [r.ranking, new Map(r.entries.map((e) => [e.id, { rank: e.rank, value: e.value, postDeadline: e.postDeadline }]))]))

interface MarksJson {
  readonly key: string
  readonly best?: string
  readonly tied: ReadonlyArray<string>
}

interface ReportJson {
  readonly tables: ReadonlyArray<{
    readonly id: string
    readonly columns: ReadonlyArray<{
      readonly key: string
      readonly shows?: { readonly kind: "rank"; readonly ranking: string } | { readonly kind: "figure"; readonly dataset: string; readonly metric: string; readonly ranking?: string } | { readonly kind: "aggregate"; readonly name: string }
    }>
    readonly sections: ReadonlyArray<{
      readonly rows: ReadonlyArray<{
        readonly id: string
        readonly postDeadline: boolean
        readonly cells: Record<string, { readonly _tag: string; readonly value?: number; readonly rank?: number; readonly marks: ReadonlyArray<string> }>
      }>
    }>
  }>
}

const expectSameStanding = (what: string, got: Standing | undefined, want: Standing) => {
  expect(got, what).toBeDefined()
  expect(got!.rank, `${what}: rank`).toBe(want.rank)
  expect(got!.postDeadline, `${what}: post-deadline`).toBe(want.postDeadline)
  if (want.value === null) expect(got!.value, `${what}: figure`).toBeNull()
  else expect(got!.value, `${what}: figure`).toBeCloseTo(want.value, 12)
}

/**
 * The check of the editions `ids`, one test each. The editions are split between two test files,
 * so that Vitest's two workers share them.
 */
export const checkConsistency = (ids: ReadonlyArray<string>) => {
  // Without ../shared a file may have no edition to check: a file that registers no test fails
  // ("No test suite found"), so it says why it has none (README's test line on a fresh clone).
  if (ids.length === 0) {
    it.skip(`skipped: the public data is not found at ${dataRoot} (put shared/ beside the checkout or set STSEVAL_SHARED)`, () => {})
    return
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-consistency-"))
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

  describe.each(ids)("%s: rank, report, watch and codabench score say the same", (id) => {
    const edition = Registry.get(id)!
    const task = ["--task", id, ...(id === "sick2014" ? ["--gold", sickGold] : ["--data-root", dataRoot])]

    it("the same ranks, official figures and marks", { timeout: 120_000 }, async () => {
      const folder = await makeFolder(tmp, edition)

      // rank: the one ranking (primary runs: every run here is primary)
      const rank = await runCli(["rank", ...task, folder, "--json"])
      expect(rank.code, rank.stderr).toBe(0)
      const rankDoc = JSON.parse(rank.stdout) as { gold: { path: string }; rankings: { rankings: ReadonlyArray<{ ranking: string; metric: string; entries: ReadonlyArray<EntryJson> }> } }
      const ranked = rankingsOf(rankDoc.rankings.rankings)
      for (const [name, entries] of ranked) {
        // the failed run and the post-deadline run are listed, never ranked; the twins share a rank
        expect(entries.get("Broken/run1")?.rank, `${name}: Broken`).toBeNull()
        expect(entries.get("Late/run1")?.rank, `${name}: Late`).toBeNull()
        expect(entries.get("Late/run1")?.postDeadline).toBe(true)
        expect(entries.get("Twin/run1")?.rank, `${name}: Twin ties with Noisy`).toBe(entries.get("Noisy/run1")?.rank)
        expect([...entries.values()].some((e) => e.rank === 1), `${name}: someone is first`).toBe(true)
      }

      // watch --once: the board's rankings and its marks
      const out = path.join(tmp, id, "board")
      const watch = await runCli(["watch", ...task, "--once", "--primary-only", "--out", out, folder])
      expect(watch.code, watch.stderr).toBe(0)
      const board = JSON.parse(fs.readFileSync(path.join(out, "leaderboard.json"), "utf8")) as {
        rankings: ReadonlyArray<{ ranking: string; entries: ReadonlyArray<EntryJson> }>
        marks: ReadonlyArray<MarksJson>
      }
      const boardRankings = rankingsOf(board.rankings)
      expect([...boardRankings.keys()]).toEqual([...ranked.keys()])
      for (const [name, entries] of ranked) {
        for (const [run, standing] of entries) expectSameStanding(`watch ${name} ${run}`, boardRankings.get(name)?.get(run), standing)
      }
      const marks = new Map(board.marks.map((m) => [m.key, m]))

      // report --format json: every Rank column and every figure column of a ranking, and the bold
      const report = await runCli(["report", ...task, folder, "--format", "json", "--primary-only"])
      expect(report.code, report.stderr).toBe(0)
      const doc = JSON.parse(report.stdout) as ReportJson
      let rankCells = 0
      for (const table of doc.tables) {
        const rows = table.sections.flatMap((s) => s.rows)
        for (const row of rows) expect(row.postDeadline, `${table.id} ${row.id}: dagger`).toBe(row.id === "Late/run1")
        for (const column of table.columns) {
          const shows = column.shows
          if (shows === undefined) continue
          const cell = (row: (typeof rows)[number]) => row.cells[column.key]
          const ranksInCells = shows.kind === "figure" && shows.ranking !== undefined && rows.some((r) => cell(r).rank !== undefined)
          if (shows.kind === "rank" || ranksInCells) {
            const name = shows.ranking!
            const entries = ranked.get(name)
            expect(entries, `${table.id}: ranking ${name}`).toBeDefined()
            for (const row of rows) {
              const want = entries!.get(row.id)?.rank ?? null
              const got = shows.kind === "rank" ? (cell(row)._tag === "number" ? cell(row).value : null) : (cell(row).rank ?? null)
              expect(got ?? null, `${table.id} ${column.key} ${row.id}: rank`).toBe(want)
              rankCells++
            }
          }
          // a table without a Rank column that shows a ranking's official figure lists its ranked runs in the ranking's order
          const officialOf = shows.kind === "aggregate" ? shows.name : shows.kind === "figure" ? shows.ranking : undefined
          if (officialOf !== undefined && ranked.has(officialOf) && !ranksInCells && !table.columns.some((c) => c.shows?.kind === "rank")) {
            const entries = ranked.get(officialOf)!
            const byRank = (ids: ReadonlyArray<string>) => ids.filter((r) => (entries.get(r)?.rank ?? null) !== null)
            const listed = byRank(rows.map((r) => r.id))
            expect(listed.map((r) => entries.get(r)!.rank), `${table.id}: rows in ${officialOf}'s order`).toEqual(
              listed.map((r) => entries.get(r)!.rank).sort((a, b) => a! - b!)
            )
            rankCells += listed.length
          }
          // an official figure: the ranking's value
          const official = shows.kind === "aggregate" ? ranked.get(shows.name) : shows.kind === "figure" && shows.ranking !== undefined ? ranked.get(shows.ranking) : undefined
          if (official !== undefined) {
            for (const row of rows) {
              const want = official.get(row.id)?.value ?? null
              if (want !== null && cell(row)._tag === "number") expect(cell(row).value, `${table.id} ${column.key} ${row.id}`).toBeCloseTo(want, 12)
            }
          }
          // the bold: the runs the board's marks tie with the best, among the rows listed
          const tied = rows.filter((r) => cell(r).marks.includes("tied")).map((r) => r.id)
          if (tied.length > 0 && shows.kind !== "rank") {
            const key = shows.kind === "figure" ? `${shows.dataset}:${shows.metric}` : `aggregate:${shows.name}`
            const m = marks.get(key)
            expect(m, `${table.id} ${column.key}: marks ${key} on the board`).toBeDefined()
            expect(new Set(tied), `${table.id} ${column.key}: bold`).toEqual(new Set(m!.tied.filter((r) => rows.some((x) => x.id === r))))
          }
        }
      }
      expect(rankCells, "the report shows the ranking").toBeGreaterThan(0)

      // codabench score, one submission at a time: the primary column's figure, and no scores for a failed run
      const bundle = path.join(tmp, id, "bundle")
      const cli = path.join(tmp, "stseval.mjs")
      fs.writeFileSync(cli, "// not run here\n")
      const made = await runCli(["codabench", "bundle", "--task", id, "--gold", rankDoc.gold.path, "--out", bundle, "--cli", cli, "--live-test"])
      expect(made.code, made.stderr).toBe(0)
      const submissions = fs.readdirSync(folder).map((f) => path.join(folder, f))
      const runOf = (name: string) => submissions.find((s) => path.basename(s).startsWith(`${name}_`))!
      // the competitions: one, or one per dataset (each a ranking of its own); a few languages suffice
      const competitions = fs.existsSync(path.join(bundle, "competition.yaml"))
        ? [{ dir: bundle, ranking: [...ranked.keys()][0], dataset: undefined as string | undefined }]
        : [...ranked.keys()].slice(0, 2).map((name) => ({ dir: path.join(bundle, name), ranking: name, dataset: name }))
      for (const competition of competitions) {
        // read as Codabench reads it (PyYAML's safe_load)
        const parsed = CompetitionYaml.parseAsCodabench(fs.readFileSync(path.join(competition.dir, "competition.yaml"), "utf8"))
        expect("value" in parsed, "competition.yaml parses").toBe(true)
        const yaml = (parsed as { value: unknown }).value as {
          leaderboards: ReadonlyArray<{ primary_index: number; columns: ReadonlyArray<{ key: string; index: number; sorting: "asc" | "desc" }> }>
        }
        const primary = yaml.leaderboards[0].columns.find((c) => c.index === yaml.leaderboards[0].primary_index)!
        const entries = ranked.get(competition.ranking)!
        const metric = rankDoc.rankings.rankings.find((r) => r.ranking === competition.ranking)!.metric
        const scale = Style.forMetric(edition, metric).scale ?? 1
        const scored: Array<{ run: string; value: number }> = []
        for (const team of ["Good", "Noisy", "Noisier", "Twin", "Broken"]) {
          const input = path.join(tmp, id, "codabench", competition.ranking, team, "input")
          const output = path.join(tmp, id, "codabench", competition.ranking, team, "output")
          fs.cpSync(path.join(competition.dir, "reference_data_test"), path.join(input, "ref"), { recursive: true })
          fs.mkdirSync(path.join(input, "res"), { recursive: true })
          for (const file of filesOf(runOf(team))) {
            // a competition for one language takes that language's file only
            if (competition.dataset !== undefined && !path.basename(file).includes(competition.dataset)) continue
            fs.copyFileSync(file, path.join(input, "res", path.basename(file)))
          }
          const r = await runCli(["codabench", "score", input, output])
          const want = entries.get(`${team}/run1`)!
          if (team === "Broken") {
            expect(r.code, "a failed run fails its submission").toBe(1)
            expect(fs.existsSync(path.join(output, "scores.json")), "and uploads no scores").toBe(false)
            continue
          }
          expect(r.code, `${competition.ranking} ${team}: ${r.stderr}`).toBe(0)
          const scores = JSON.parse(fs.readFileSync(path.join(output, "scores.json"), "utf8")) as Record<string, number>
          expect(scores[primary.key], `${competition.ranking} ${team}: ${primary.key}`).toBeCloseTo(want.value! * scale, 9)
          scored.push({ run: `${team}/run1`, value: scores[primary.key] })
        }
        // Codabench orders its board by the primary column: the order of the ranking
        const order = [...scored].sort((a, b) => (primary.sorting === "desc" ? b.value - a.value : a.value - b.value))
        for (let i = 1; i < order.length; i++) expect(entries.get(order[i - 1].run)!.rank!).toBeLessThanOrEqual(entries.get(order[i].run)!.rank!)
      }
    })
  })
}
