import { describe, expect, it } from "vitest"
import { MetricValue } from "@stseval/metrics"
import { Rank, ResultJson } from "@stseval/scoring"
import type { ScoredRun } from "@stseval/scoring"

const run = (team: string, n: number, value: number | string, opts: { primary?: boolean; failed?: boolean } = {}): ScoredRun.ScoredRun => ({
  edition: "toy",
  path: `subs/${team}_run${n}`,
  meta: { id: `${team}/run${n}`, team, run: n, primary: opts.primary ?? true, late: false, corrected: false, postDeadline: false },
  status: opts.failed === true ? "failed" : "scored",
  failure: opts.failed === true ? "no file of the run matches a dataset" : undefined,
  datasets: [],
  aggregates: {},
  official: [
    {
      ranking: "official",
      metric: "pearson",
      rule: "wmean",
      direction: "higher",
      value: typeof value === "number" ? MetricValue.defined(value) : MetricValue.undefined_(value),
      datasets: [],
      zeroed: []
    }
  ],
  errors: [],
  warnings: [],
  infos: []
})

describe("rank", () => {
  const runs = [
    run("Zeta", 1, 0.7),
    run("Alpha", 1, 0.8),
    run("Beta", 1, 0.7),
    run("Broken", 1, "no dataset was scored", { failed: true }),
    run("Gamma", 1, "no official score: it needs every dataset"),
    run("Alpha", 2, 0.9, { primary: false }),
    run("Delta", 1, 0.6)
  ]

  it("ranks primary runs by the official figure; ties share a rank; unranked runs listed with the reason", () => {
    const ranked = Rank.rank(runs)
    expect(ranked.excluded).toBe(1)
    const entries = ranked.rankings[0].entries
    expect(entries.map((e) => [e.rank, e.meta.team])).toEqual([
      [1, "Alpha"],
      [2, "Beta"],
      [2, "Zeta"],
      [4, "Delta"],
      [undefined, "Broken"],
      [undefined, "Gamma"]
    ])
    expect(entries[4].reason).toMatch(/^the run failed: no file/)
    // said once, not "no official figure: no official score: ..."
    expect(entries[5].reason).toBe("no official score: it needs every dataset")
  })

  it("all runs on request", () => {
    const ranked = Rank.rank(runs, { primaryOnly: false })
    expect(ranked.excluded).toBe(0)
    expect(ranked.rankings[0].entries.slice(0, 2).map((e) => [e.rank, e.meta.id])).toEqual([
      [1, "Alpha/run2"],
      [2, "Alpha/run1"]
    ])
  })

  it("is deterministic: the input order does not matter", () => {
    const a = Rank.rank(runs)
    const b = Rank.rank([...runs].reverse())
    expect(ResultJson.rankedToJson(b)).toEqual(ResultJson.rankedToJson(a))
  })

  it("SICK: two rankings, relatedness by Pearson and entailment by accuracy", () => {
    const sick = (team: string, r: number | undefined, acc: number | undefined): ScoredRun.ScoredRun => ({
      ...run(team, 1, 0),
      edition: "sick2014",
      official: [
        { ...run(team, 1, 0).official[0], ranking: "relatedness", metric: "pearson", rule: "single", value: r === undefined ? MetricValue.undefined_("the run's relatedness_score column holds NA") : MetricValue.defined(r) },
        { ...run(team, 1, 0).official[0], ranking: "entailment", metric: "accuracy", rule: "single", value: acc === undefined ? MetricValue.undefined_("no entailment column") : MetricValue.defined(acc) }
      ]
    })
    const ranked = Rank.rank([sick("A", 0.8, undefined), sick("B", 0.7, 80), sick("C", undefined, 70)])
    expect(ranked.rankings.map((r) => r.ranking)).toEqual(["relatedness", "entailment"])
    expect(ranked.rankings[0].entries.map((e) => [e.rank, e.meta.team])).toEqual([
      [1, "A"],
      [2, "B"],
      [undefined, "C"]
    ])
    expect(ranked.rankings[1].entries.map((e) => [e.rank, e.meta.team])).toEqual([
      [1, "B"],
      [2, "C"],
      [undefined, "A"]
    ])
  })

  it("refuses to mix editions", () => {
    expect(() => Rank.rank([run("A", 1, 0.5), { ...run("B", 1, 0.4), edition: "other" }])).toThrow(RangeError)
  })

  it("one tie rule: equal figures share the rank and are listed by team (code points), run number (numeric), id", () => {
    const tied = [run("b", 10, 0.5), run("B", 1, 0.5), run("b", 2, 0.5), run("a", 1, 0.4)]
    const entries = Rank.rank(tied).rankings[0].entries
    // "B" < "b" in code points; run2 before run10
    expect(entries.map((e) => [e.rank, e.meta.id])).toEqual([[1, "B/run1"], [1, "b/run2"], [1, "b/run10"], [4, "a/run1"]])
    expect(Rank.rank([...tied].reverse()).rankings[0].entries.map((e) => e.meta.id)).toEqual(entries.map((e) => e.meta.id))
  })

  it("run limit, one primary per team and post-deadline runs, as the live leaderboard needs", () => {
    const late = { ...run("T", 2, 0.95), meta: { ...run("T", 2, 0.95).meta, postDeadline: true } }
    const team = [run("T", 1, 0.5), late, run("T", 3, 0.9), run("T", 4, 0.99)]
    const marked = Rank.rank(team, { primaryOnly: false, runLimit: 3, onePrimary: true })
    expect(marked.standings.map((s) => [s.run.meta.id, s.primary, s.flags])).toEqual([
      ["T/run1", true, []],
      ["T/run2", false, ["post-deadline", "extra-primary"]],
      ["T/run3", false, ["extra-primary"]],
      ["T/run4", false, ["over-limit"]]
    ])
    // the post-deadline run is listed with its mark and never ranked: it pushes no ranked run down
    expect(marked.rankings[0].entries.map((e) => [e.rank, e.meta.id, e.flags.includes("post-deadline"), e.reason])).toEqual([
      [1, "T/run3", false, undefined],
      [2, "T/run1", false, undefined],
      [undefined, "T/run2", true, "submitted after the deadline (listed, never ranked)"],
      [undefined, "T/run4", false, "beyond the limit of 3 runs for team T"]
    ])
    // primary runs only, after the one-primary rule: T/run1 alone
    expect(Rank.rank(team, { runLimit: 3, onePrimary: true }).rankings[0].entries.map((e) => e.meta.id)).toEqual(["T/run1"])
  })

  it("a run of unknown identity (its run.json could not be used): counts toward no team's limit, takes no primary, listed as failed in every ranking, never ranked", () => {
    const unknown = (name: string, failed = true): ScoredRun.ScoredRun => {
      const r = run(name, 1, 0.99, { failed })
      return { ...r, path: `subs/${name}`, meta: { id: name, team: name, run: undefined, primary: false, late: false, corrected: false, postDeadline: false, identityUnknown: true } }
    }
    // named like T's runs, sorted among them: T_run1 < T_run9 in code points, and "T" < "T_run1"
    const team = [run("T", 1, 0.5), run("T", 2, 0.6, { primary: false }), unknown("T_run1primary"), run("T", 3, 0.7, { primary: false }), unknown("T_run9.zip")]
    const ranked = Rank.rank(team, { runLimit: 3, onePrimary: true })
    expect(ranked.standings.map((s) => [s.run.meta.id, s.primary, s.flags])).toEqual([
      ["T/run1", true, []],
      ["T/run2", false, []],
      ["T/run3", false, []],
      ["T_run1primary", false, []],
      ["T_run9.zip", false, []]
    ])
    // primary runs only (the default): still listed, as failed, not left out as non-primary
    expect(ranked.excluded).toBe(2)
    expect(ranked.rankings[0].entries.map((e) => [e.rank, e.meta.id, e.reason])).toEqual([
      [1, "T/run1", undefined],
      [undefined, "T_run1primary", "the run failed: no file of the run matches a dataset"],
      [undefined, "T_run9.zip", "the run failed: no file of the run matches a dataset"]
    ])
    expect(ranked.merged).toEqual([])
    // every run: T's three valid runs within the limit of 3, all ranked
    const all = Rank.rank(team, { primaryOnly: false, runLimit: 3 })
    expect(all.rankings[0].entries.map((e) => [e.rank, e.meta.id])).toEqual([
      [1, "T/run3"],
      [2, "T/run2"],
      [3, "T/run1"],
      [undefined, "T_run1primary"],
      [undefined, "T_run9.zip"]
    ])
    // never ranked, even if a caller hands one over as scored
    const scored = Rank.rank([unknown("U_run1", false), run("V", 1, 0.1)])
    expect(scored.rankings[0].entries.map((e) => [e.rank, e.meta.id])).toEqual([
      [1, "V/run1"],
      [undefined, "U_run1"]
    ])
    expect(scored.rankings[0].entries[1].reason).toContain("run.json")
  })

  it("team identity: ECNU, ecnu, Ecnu, 'ECNU ', 'ECNU\u200b' and full-width ＥＣＮＵ are one team for the run limit and one primary run; merges are said", () => {
    const spellings = ["ECNU", "ecnu", "Ecnu", "ECNU ", "ECNU\u200b", "\uff25\uff23\uff2e\uff35", "ECNU\u00a0"]
    const runs = spellings.map((team, i) => run(team, i + 1, 0.5 + i / 100))
    const ranked = Rank.rank([...runs, run("Other", 1, 0.1)], { primaryOnly: false, runLimit: 5, onePrimary: true })
    const ecnu = ranked.standings.filter((s) => s.run.meta.team !== "Other")
    // 7 runs of one team against a limit of 5: the two last in run order are over the limit
    expect(ecnu.filter((s) => s.flags.includes("over-limit"))).toHaveLength(2)
    expect(ecnu.filter((s) => s.primary)).toHaveLength(1)
    // shown under the first spelling in run order (code points: "ECNU" first)
    expect(new Set(ecnu.map((s) => s.team))).toEqual(new Set(["ECNU"]))
    expect(new Set(ranked.rankings[0].entries.filter((e) => e.meta.id !== "Other/run1").map((e) => e.meta.team))).toEqual(new Set(["ECNU"]))
    expect(ranked.merged).toHaveLength(1)
    expect(ranked.merged[0].team).toBe("ECNU")
    expect(new Set(ranked.merged[0].spellings)).toEqual(new Set(spellings))
    // distinct teams stay distinct, and nothing is merged when nothing is alike
    expect(Rank.rank([run("ECNU", 1, 0.5), run("ECNU2", 1, 0.4)]).merged).toEqual([])
  })

  it("ranks by a figure of the caller's choice, smaller first when lower is better (MSE)", () => {
    const mse = new Map([["A/run1", 0.3], ["B/run1", 0.2], ["C/run1", 0.2]])
    const ranked = Rank.rank([run("A", 1, 0), run("B", 1, 0), run("C", 1, 0)], {
      by: [{ ranking: "mse", metric: "mse", lowerIsBetter: true, value: (r) => MetricValue.defined(mse.get(r.meta.id)!) }]
    })
    expect(ranked.rankings[0].entries.map((e) => [e.rank, e.meta.id])).toEqual([[1, "B/run1"], [1, "C/run1"], [3, "A/run1"]])
  })
})

describe("the best figure and the order by a figure (one rule for every table and the board)", () => {
  it("best: the highest figure, the lowest in a lower-is-better direction; none without a finite figure", () => {
    expect(Rank.best([0.5, null, 0.81, undefined, Number.NaN, 0.81], "higher")).toBe(0.81)
    expect(Rank.best([0.5, 0.2, 0.9], "lower")).toBe(0.2)
    expect(Rank.best([null, undefined, Number.NaN], "higher")).toBeUndefined()
  })

  it("orderBy: ranked runs first, then the best figure first, runs without one last, ties in the order given", () => {
    const rows = [
      { id: "a", ranked: true, v: 0.5 },
      { id: "b", ranked: false, v: 0.9 },
      { id: "c", ranked: true, v: undefined },
      { id: "d", ranked: true, v: 0.7 },
      { id: "e", ranked: true, v: 0.5 }
    ]
    const by = (direction: "higher" | "lower") => Rank.orderBy(rows, { ranked: (r) => r.ranked, value: (r) => r.v, direction }).map((r) => r.id)
    expect(by("higher")).toEqual(["d", "a", "e", "c", "b"])
    expect(by("lower")).toEqual(["a", "e", "d", "c", "b"])
  })
})

describe("unentered: the rankings of one dataset that no run entered (SemRel's languages)", () => {
  const entry = (id: string, status: "scored" | "missing" | undefined, rank?: number) => ({
    rank,
    run: { datasets: status === undefined ? [] : [{ dataset: "eng", status }] },
    meta: { id },
    primary: true,
    flags: [],
    value: MetricValue.undefined_("none"),
    reason: rank === undefined ? "no figure" : undefined
  })
  const ranking = (rule: string | undefined, entries: ReadonlyArray<ReturnType<typeof entry>>) => ({ ranking: "eng", metric: "spearman", rule, lowerIsBetter: false, entries })

  it("is a ranking per dataset whose every run lacks the dataset; one run that has it, or a ranked run, keeps the ranking's table", () => {
    const none = ranking("dataset", [entry("A/run1", "missing"), entry("B/run1", undefined)])
    const one = ranking("dataset", [entry("A/run1", "missing"), entry("B/run1", "scored")])
    const official = ranking("wmean", [entry("A/run1", "missing")])
    const empty = ranking("dataset", [])
    expect(Rank.unentered([none, one, official, empty]).map((r) => r === none)).toEqual([true])
  })
})
