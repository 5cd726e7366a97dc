/**
 * Benchmark of the HTML report for a large shared task, wired into `pnpm bench` by tooling/bench:
 * 2,000 runs on two STS 2017 tracks (250 pairs each, synthetic gold, runs of known Pearson r), laid
 * out as STS 2017 Table 10 with significance marks, the p-value heat map and scatter plots, and
 * rendered as one HTML page. Before the heat map was capped (issue 16) this was 190 s and a
 * 521 MB page; the figures: time, page size, heat-map cells, peak RSS. `layoutMs` is the per-track
 * marks (`Marks.compute`, as the layout computed them before marks moved to scoring) and the
 * layout; `primaryMarksMs` the marks of the Primary column (the stratified bootstrap), new.
 *
 * @since 0.2.0
 */
import * as Marks from "@stseval/scoring/Marks"
import { Html, Markdown, Presets } from "../src/index.js"
import type { Results } from "../src/Results.js"
import type { HandMade } from "../test/helpers.js"
import { marked, ranked, runWithPearson, syntheticGold } from "../test/helpers.js"

const tracks = ["track1.ar-ar", "track5.en-en"] as const

const results = (runs: number): HandMade => {
  const gold = tracks.map((_, i) => syntheticGold(250, 100 + i))
  return {
    edition: "sts2017",
    datasets: tracks.map((t, i) => ({ name: t, header: t.split(".")[1], pairs: 250, gold: gold[i] })),
    runs: Array.from({ length: runs }, (_, k) => {
      const rs = tracks.map((_, i) => 0.3 + 0.6 * (((k * 7919 + i * 104729) % runs) / runs))
      return {
        id: `r${k}`,
        team: `Team${String(k).padStart(4, "0")}`,
        run: "run1",
        primary: true,
        datasets: Object.fromEntries(tracks.map((t, i) => [t, { pearson: rs[i], pairs: 250 }])),
        aggregates: { official: (rs[0] + rs[1]) / 2 },
        scores: Object.fromEntries(tracks.map((t, i) => [t, runWithPearson(gold[i], rs[i], k * 2 + i)]))
      }
    })
  }
}

export const run = () =>
  [200, 2000].map((n) => {
    const input: Results = ranked(results(n))
    const start = performance.now()
    const withMarks = marked(input, { matrix: Marks.MATRIX_MAX_RUNS, only: tracks.map((t) => `${t}:pearson`) })
    const table = Presets.preset("sts2017-table10", withMarks, {})
    const laidOut = performance.now()
    marked(input, { only: ["aggregate:official"] })
    const primary = performance.now()
    const html = Html.render(table)
    const done = performance.now()
    const md = Markdown.render(table)
    return {
      case: `report html, ${n} runs x ${tracks.length} tracks`,
      layoutMs: laidOut - start,
      htmlMs: done - primary,
      totalMs: laidOut - start + (done - primary),
      primaryMarksMs: primary - laidOut,
      pageMB: Buffer.byteLength(html) / 2 ** 20,
      markdownKB: Buffer.byteLength(md) / 1024,
      heatmapCells: (html.match(/<rect x=/g) ?? []).length,
      heatmapRunsMax: Marks.MATRIX_MAX_RUNS,
      rssMB: process.memoryUsage().rss / 2 ** 20
    }
  })
