/**
 * Results fixtures built by hand: STS 2017-like tracks with synthetic gold and runs whose Pearson r
 * is exactly the figure shown, including hostile team names.
 */
import type { Results } from "../src/Results.js"
import { marked, ranked, runWithPearson, syntheticGold } from "./helpers.js"

export const hostileNames = [
  "a_b & c % d # e $ f { g } h ~ i ^ j \\ k",
  "<script>alert(1)</script>",
  "pipe|team || x",
  "**bold** [link](http://example.org) `code`",
  "N".repeat(290) + "-long-name",
  "فريق التشابه الدلالي",
  "צוות עברי",
  "Ünïcödé-Team_ß"
] as const

const tracks = ["track1.ar-ar", "track5.en-en"] as const

/**
 * Two tracks, 250 pairs each; one run per hostile name plus a best run and a baseline; ranked by
 * the official figure (every run) and marked as scoring would (`ranked`, `marked`).
 */
export const hostileResults = (): Results => marked(ranked(hostileRuns()), { matrix: 50 })

/** The runs of `hostileResults`, before they are ranked. */
export const hostileRuns = () => {
  const gold = tracks.map((_, i) => syntheticGold(250, 100 + i))
  const run = (id: string, team: string, rs: ReadonlyArray<number>, extra: object = {}) => ({
    id,
    team,
    run: "run1",
    primary: true,
    datasets: Object.fromEntries(tracks.map((t, i) => [t, { pearson: rs[i], pairs: 250 }])),
    aggregates: { official: (rs[0] + rs[1]) / 2 },
    scores: Object.fromEntries(tracks.map((t, i) => [t, runWithPearson(gold[i], rs[i], 17 * id.length + i)])),
    ...extra
  })
  return {
    edition: "sts2017",
    style: "r100" as const,
    datasets: tracks.map((t, i) => ({ name: t, header: t.split(".")[1], pairs: 250, gold: gold[i] })),
    runs: [
      run("best", "BestTeam", [0.8, 0.85]),
      ...hostileNames.map((name, k) => run(`h${k}`, name, [0.5 + k * 0.02, 0.6 - k * 0.01], k === 1 ? { late: true } : k === 2 ? { postDeadline: true } : {})),
      run("baseline", "baseline-tokencos", [0.6045, 0.7278], { section: "Baselines", run: "" })
    ]
  }
}
