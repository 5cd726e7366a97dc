import { describe, expect, it } from "vitest"
import * as Leaderboard from "../src/Leaderboard.js"
import type { RunOutcome } from "../src/Scorer.js"

const scored = (value: number | null): RunOutcome => ({
  status: "scored",
  official: [{ ranking: "official", metric: "pearson", rule: "single", direction: "higher", value, datasets: [], zeroed: [], ...(value === null ? { undefined: { value: "no scored pairs" } } : {}) }],
  errors: [],
  warnings: []
})
const failed: RunOutcome = {
  status: "failed",
  failure: "line 3 is not a number",
  official: [],
  errors: [{ severity: "error", code: "not-a-number", file: "x", line: 3, message: "line 3 is not a number" }],
  warnings: []
}

const rec = (entry: string, team: string, run: number | undefined, outcome: RunOutcome, extra: Partial<Leaderboard.RunRecord> = {}): Leaderboard.RunRecord => ({
  entry,
  kind: "file",
  team,
  run,
  primary: false,
  late: false,
  corrected: false,
  hash: entry,
  submittedAt: 0,
  outcome,
  ...extra
})

describe("Leaderboard.build", () => {
  it("ranks by the official figure; ties share a rank; failed and figure-less runs are listed, not ranked", () => {
    const b = Leaderboard.build(
      [
        rec("C_run1.txt", "C", 1, scored(0.7)),
        rec("A_run1.txt", "A", 1, scored(0.8)),
        rec("B_run1.txt", "B", 1, scored(0.7)),
        rec("D_run1.txt", "D", 1, failed),
        rec("E_run1.txt", "E", 1, scored(null))
      ],
      { task: "t", runLimit: 3 }
    )
    expect(b.rankings[0].entries.map((e) => [e.rank, e.id])).toEqual([
      [1, "A/run1"],
      [2, "B/run1"],
      [2, "C/run1"],
      [null, "D/run1"],
      [null, "E/run1"]
    ])
    expect(b.rankings[0].entries[3].reason).toBe("the run failed: line 3 is not a number")
    expect(b.rankings[0].entries[4].reason).toBe("no official figure: no scored pairs")
    expect(b.counts).toEqual({ runs: 5, scored: 4, failed: 1, ranked: 3 })
  })

  it("run limit by team identity: ECNU, ecnu, 'ECNU ' and 'ECNU\u200b' are one team, shown as ECNU, and each run says the names were merged", () => {
    const spellings = ["ECNU", "ecnu", "Ecnu", "ECNU ", "ECNU\u200b"]
    const runs = spellings.flatMap((team, i) => [1, 2].map((n) => rec(`${team}_run${n}-${i}.txt`, team, n, scored((10 * i + n) / 100))))
    const b = Leaderboard.build([...runs, rec("X_run1.txt", "X", 1, scored(0.5))], { task: "t", runLimit: 5 })
    const ecnu = b.runs.filter((r) => r.team !== "X")
    expect(ecnu).toHaveLength(10)
    expect(new Set(ecnu.map((r) => r.team))).toEqual(new Set(["ECNU"]))
    expect(ecnu.filter((r) => r.flags.includes("over-limit"))).toHaveLength(5)
    expect(b.counts.ranked).toBe(6)
    for (const r of ecnu) expect(r.warnings.some((w) => w.code === "run-limit")).toBe(true)
    const warning = ecnu[0].warnings.find((w) => w.code === "run-limit")!
    for (const t of spellings) expect(warning.message).toContain(JSON.stringify(t))
    expect(b.runs.find((r) => r.team === "X")!.warnings).toEqual([])
  })

  it("run limit: runs beyond the team's limit (by run number) are flagged and not ranked", () => {
    // SICK allows 5 runs per team, STS 2017 3: with a limit of 3 the team's run4 and run10 are extra
    const runs = [1, 2, 3, 4, 10].map((n) => rec(`T_run${n}.txt`, "T", n, scored(n / 100)))
    const b = Leaderboard.build(runs, { task: "t", runLimit: 3 })
    expect(b.runs.map((r) => [r.id, r.flags])).toEqual([
      ["T/run1", []],
      ["T/run2", []],
      ["T/run3", []],
      ["T/run4", ["over-limit"]],
      ["T/run10", ["over-limit"]]
    ])
    expect(b.rankings[0].entries.filter((e) => e.rank !== null).map((e) => e.id)).toEqual(["T/run3", "T/run2", "T/run1"])
    expect(b.rankings[0].entries.find((e) => e.id === "T/run4")!.reason).toBe("beyond the limit of 3 runs for team T")
  })

  it("one primary per team: the lowest-numbered primary keeps it, the others are flagged", () => {
    const b = Leaderboard.build(
      [rec("T_run2primary.txt", "T", 2, scored(0.5), { primary: true }), rec("T_run1primary.txt", "T", 1, scored(0.4), { primary: true }), rec("U_run1.txt", "U", 1, scored(0.3))],
      { task: "t", runLimit: 5, primaryOnly: true }
    )
    expect(b.runs.map((r) => [r.id, r.primary, r.flags])).toEqual([
      ["T/run1", true, []],
      ["T/run2", false, ["extra-primary"]],
      ["U/run1", false, []]
    ])
    // primaryOnly ranks the one primary run only
    expect(b.rankings[0].entries.map((e) => e.id)).toEqual(["T/run1"])
  })

  it("a run of unknown identity (its run.json could not be used): listed as failed under its name, takes no run-limit slot, no primary, no valid run's id", () => {
    const unknown = rec("T_run1.zip", "T_run1.zip", undefined, failed, { identityUnknown: true })
    const runs = [unknown, rec("T_run2.txt", "T", 2, scored(0.6), { primary: true }), rec("T_run3.txt", "T", 3, scored(0.7)), rec("x.txt", "T", undefined, scored(0.5))]
    const b = Leaderboard.build(runs, { task: "t", runLimit: 3 })
    expect(b.runs.flatMap((r) => r.flags)).toEqual([])
    expect(b.runs.find((r) => r.entry === "T_run1.zip")).toMatchObject({ id: "T_run1.zip", team: "T_run1.zip", primary: false, status: "failed", identityUnknown: true })
    expect(b.rankings[0].entries.map((e) => [e.rank, e.id])).toEqual([
      [1, "T/run3"],
      [2, "T/run2"],
      [3, "T/x"],
      [null, "T_run1.zip"]
    ])
    expect(b.counts).toEqual({ runs: 4, scored: 3, failed: 1, ranked: 3 })
    // primary runs only: T's primary run, and the unknown one listed (it may be anyone's primary run)
    const primary = Leaderboard.build(runs, { task: "t", runLimit: 3, primaryOnly: true })
    expect(primary.rankings[0].entries.map((e) => [e.rank, e.id])).toEqual([
      [1, "T/run2"],
      [null, "T_run1.zip"]
    ])
  })

  it("ids clash: two runs named Team run1 get ~2", () => {
    const b = Leaderboard.build([rec("T_run1.txt", "T", 1, scored(0.1)), rec("T-run1.zip", "T", 1, scored(0.2), { kind: "zip" })], { task: "t", runLimit: 5 })
    expect(b.runs.map((r) => [r.id, r.entry])).toEqual([
      ["T/run1", "T-run1.zip"],
      ["T/run1~2", "T_run1.txt"]
    ])
  })

  it("late, corrected and post-deadline marks", () => {
    const b = Leaderboard.build(
      [rec("A_run1.txt", "A", 1, scored(0.1), { late: true, submittedAt: 2000 }), rec("B_run1.txt", "B", 1, scored(0.2), { corrected: true, submittedAt: 1000 })],
      { task: "t", runLimit: 5, deadline: 1500 }
    )
    expect(b.runs.map((r) => r.flags)).toEqual([["late", "post-deadline"], ["corrected"]])
    expect(b.deadline).toBe(new Date(1500).toISOString())
  })

  it("a run declared post-deadline in its run.json is marked without any deadline set", () => {
    const b = Leaderboard.build([rec("C_run1.txt", "C", 1, scored(0.3), { postDeadline: true }), rec("D_run1.txt", "D", 1, scored(0.2))], { task: "t", runLimit: 5 })
    expect(b.runs.map((r) => [r.id, r.flags])).toEqual([["C/run1", ["post-deadline"]], ["D/run1", []]])
  })

  it("the public view in the hidden phase has no figures, ranks or warnings", () => {
    const b = Leaderboard.build([rec("A_run1.txt", "A", 1, { ...scored(0.9), warnings: [{ severity: "warning", code: "crlf", file: "x", message: "CRLF" }] })], {
      task: "t",
      runLimit: 5
    })
    const p = Leaderboard.publicView(b, true)
    expect(p.rankings).toEqual([])
    expect(p.runs[0].official).toEqual([])
    expect(p.runs[0].warnings).toEqual([])
    expect(JSON.stringify(p)).not.toContain("0.9")
    expect(Leaderboard.publicView(b, false).rankings).toEqual(b.rankings)
  })
})
