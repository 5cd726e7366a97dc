/**
 * detailed_results.html: self-contained (no request anywhere), escaped, and a plot that shows the
 * run against the gold without listing the pairs in gold-file order.
 */
import { Registry } from "@stseval/formats"
import { describe, expect, it } from "vitest"
import { DetailedResults, Scores } from "../src/index.js"

const edition = Registry.get("stsb")!
const hostile = `<script>alert('x')</script>"&`

const input = (over: Partial<DetailedResults.Input> = {}): DetailedResults.Input => {
  const gold = Float64Array.from({ length: 50 }, (_, i) => (i * 37) % 51 / 10)
  const run = gold.map((g, i) => g + ((i % 7) - 3) / 10)
  const columns = Scores.columns(edition)
  return {
    edition,
    verdict: "scored",
    summary: `Scored ${hostile}`,
    columns,
    scores: { scores: { pearson: 91.234567 }, omitted: [{ key: "spearman", title: "Spearman rho", reason: `because ${hostile}` }] },
    parts: [{ name: `test ${hostile}`, status: "scored", reason: undefined, file: `${hostile}.txt`, pairs: 50, linesScored: [1, 50], aligned: { run, gold }, confusion: undefined }],
    figure: () => ({ _tag: "value", value: 0.5 }),
    issues: [
      { severity: "warning", code: "out-of-scale", file: `${hostile}.txt`, line: 3, expected: "a score in 0-5", found: hostile, message: `value ${hostile} is out of scale` },
      { severity: "info", code: "crlf", file: "run.txt", message: "CRLF line endings" }
    ],
    plot: "points",
    ...over
  }
}

describe("render", () => {
  it("is self-contained: a strict Content-Security-Policy, no script, no external reference", () => {
    const html = DetailedResults.render(input())
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`)
    expect(html).not.toMatch(/<script|<link|<img|<iframe|src=|href=|url\(/i)
    // the one URL is the SVG namespace, which is not fetched
    expect(html.match(/https?:\/\/[^"\s]+/g)).toEqual(["http://www.w3.org/2000/svg"])
  })

  it("escapes everything that comes from the submission", () => {
    const html = DetailedResults.render(input())
    expect(html).not.toContain(hostile)
    expect(html).toContain("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&quot;&amp;")
    expect(DetailedResults.escape(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;")
  })

  it("shows the leaderboard figures with the column's decimals, and why a figure is missing", () => {
    const html = DetailedResults.render(input())
    expect(html).toContain(">91.23<")
    expect(html).toContain("not computed</span>: because &lt;script&gt;")
    expect(html).toMatch(/<tr class="warning"><td>warning<\/td><td><code>&lt;script&gt;.*<\/code><\/td><td class="num">3<\/td>/)
    expect(html).toContain("<details><summary>1 informational note</summary>")
  })

  it("points: one mark per pair, in (gold, run) order rather than the gold file's order", () => {
    const html = DetailedResults.render(input())
    const d = /<path class="pts" d="([^"]+)"/.exec(html)![1]
    const points = [...d.matchAll(/M([\d.]+) ([\d.]+)h0/g)].map((m) => [Number(m[1]), Number(m[2])])
    expect(points).toHaveLength(50)
    const xs = points.map((p) => p[0])
    expect(xs).toEqual([...xs].sort((a, b) => a - b))
  })

  it("bins: counts in a grid that add up to the pairs; none: no plot", () => {
    const html = DetailedResults.render(input({ plot: "bins" }))
    expect(html).not.toContain('class="pts"')
    const counts = [...html.matchAll(/<rect [^>]*><title>(\d+)<\/title><\/rect>/g)].map((m) => Number(m[1]))
    expect(counts.reduce((a, b) => a + b, 0)).toBe(50)
    expect(DetailedResults.render(input({ plot: "none" }))).not.toContain("<svg")
  })

  it("a rejected submission shows its verdicts but no figure and no plot", () => {
    const html = DetailedResults.render(input({ verdict: "rejected", scores: undefined }))
    expect(html).not.toContain("<svg")
    expect(html).not.toContain("Leaderboard")
    expect(html).not.toContain("r 0.5")
    expect(html).toContain("value &lt;script&gt;")
  })

  it("a large run is drawn with at most MAX_POINTS points", () => {
    const n = 3 * DetailedResults.MAX_POINTS + 1
    const gold = Float64Array.from({ length: n }, (_, i) => (i % 50) / 10)
    const svg = DetailedResults.scatter("big", gold, gold, edition.scale, "points")
    expect(svg.match(/h0/g)!.length).toBeLessThanOrEqual(DetailedResults.MAX_POINTS)
    expect(svg).toContain(`1 in 4 of ${n} pairs`)
  })
})
