/**
 * detailed_results.html: self-contained (no request anywhere), escaped, a plot that shows the run
 * against the gold without listing the pairs in gold-file order where the gold is public, and
 * nothing a crafted run could read a gold value off where it is secret.
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
    signature: "stsb@0123abcd|gold:4567ef01|agg:single|stseval-scoring@0.1.0",
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

  it("one escaper with the report's: a control character in a file name or message is dropped, in text and in the plot", () => {
    const bell = "bad\u0007name\u001b[2J"
    const html = DetailedResults.render(input({ parts: [{ ...input().parts[0], name: bell, file: `${bell}.txt` }], summary: bell }))
    // eslint-disable-next-line no-control-regex
    expect(html).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/)
    expect(html).toContain("badname[2J")
    expect(DetailedResults.escape(bell)).toBe("badname[2J")
  })

  it("the plot names the dataset's ranked metric: r on STS-B, rho on SemRel", () => {
    expect(DetailedResults.render(input())).toMatch(/, r = 50\.00 \(50 pairs\)/)
    const semrel = Registry.get("semrel2024-a")!
    const part = { name: "eng", status: "scored" as const, reason: undefined, file: "pred_eng.csv", pairs: 50, linesScored: undefined, aligned: input().parts[0].aligned, confusion: undefined }
    const html = DetailedResults.render(input({ edition: semrel, columns: Scores.columns(semrel), parts: [part] }))
    expect(html).toMatch(/eng, rho = 0\.500 \(50 pairs\)/)
    expect(html).not.toMatch(/, r = /)
  })

  it("shows the leaderboard figures with the column's decimals, and why a figure is missing", () => {
    const html = DetailedResults.render(input())
    expect(html).toContain(">91.23<")
    expect(html).toContain("not computed</span>: because &lt;script&gt;")
    expect(html).toMatch(/<tr class="warning"><td>warning<\/td><td><code>&lt;script&gt;.*<\/code><\/td><td class="num">3<\/td>/)
    expect(html).toContain("<details><summary>1 informational note</summary>")
  })

  it("prints each dataset's figures in the edition's style (STS-B: r x 100) and the result's signature", () => {
    const html = DetailedResults.render(input())
    expect(html).toContain("r 50.00, rho 50.00")
    expect(html).toContain(`<code class="signature">stsb@0123abcd|gold:4567ef01|agg:single|stseval-scoring@0.1.0</code>`)
    expect(DetailedResults.render(input({ edition: Registry.get("sts2014")! }))).toContain("r 0.500, rho 0.500")
  })

  it("points: one mark per pair, in (gold, run) order rather than the gold file's order", () => {
    const html = DetailedResults.render(input())
    const d = /<path class="pts" d="([^"]+)"/.exec(html)![1]
    const points = [...d.matchAll(/M([\d.]+) ([\d.]+)h0/g)].map((m) => [Number(m[1]), Number(m[2])])
    expect(points).toHaveLength(50)
    const xs = points.map((p) => p[0])
    expect(xs).toEqual([...xs].sort((a, b) => a - b))
  })

  it("run (a secret gold): a histogram of the run's own scores that adds up to its pairs, no plot against the gold; none: no plot", () => {
    const html = DetailedResults.render(input({ plot: "run" }))
    expect(html).not.toContain('class="pts"')
    expect(html).not.toContain("Run against gold")
    const counts = [...html.matchAll(/<rect [^>]*><title>(\d+)<\/title><\/rect>/g)].map((m) => Number(m[1]))
    expect(counts.reduce((a, b) => a + b, 0)).toBe(50)
    expect(DetailedResults.render(input({ plot: "none" }))).not.toContain("<svg")
  })

  // Issue 22 #4: one crafted submission read 19 chosen test-gold values off the test phase's plot
  // (a 20 x 20 grid of (gold, run) counts) by giving each chosen pair a run score of its own row.
  it("run: nothing on the page depends on the gold beyond the figures, so no crafted run reads a gold value off it", () => {
    const n = 200
    const chosen = Array.from({ length: 19 }, (_, k) => k * 10)
    // the attack: chosen pair k gets run score k / 4 (its own row), every other pair 4.9
    const run = Float64Array.from({ length: n }, (_, i) => (chosen.includes(i) ? chosen.indexOf(i) / 4 : 4.9))
    const goldA = Float64Array.from({ length: n }, (_, i) => ((i * 37) % 51) / 10)
    // the same gold with the chosen pairs' values changed: an attacker must not see the difference
    const goldB = goldA.map((g, i) => (chosen.includes(i) ? 5 - g : g))
    const page = (gold: Float64Array, plot: DetailedResults.Plot) =>
      DetailedResults.render(input({ plot, parts: [{ name: "test", status: "scored", reason: undefined, file: "run.txt", pairs: n, linesScored: [1, n], aligned: { run, gold }, confusion: undefined }] }))
    // With the figures held equal (the leaderboard shows them anyway), the secret-gold page is the same byte for byte.
    expect(page(goldA, "run")).toBe(page(goldB, "run"))
    // The public-gold page does show the gold: the check above is not vacuous.
    expect(page(goldA, "points")).not.toBe(page(goldB, "points"))
  })

  it("SICK's entailment: the confusion matrix (gold x run) only where the gold is public; else the run's own label counts", () => {
    const labels = ["ENTAILMENT", "CONTRADICTION", "NEUTRAL"]
    const counts = [
      [5, 1, 2],
      [0, 7, 1],
      [3, 0, 9]
    ]
    const sick = Registry.get("sick2014")!
    const part = { name: "entailment", status: "scored" as const, reason: undefined, file: "run.txt", pairs: 28, linesScored: undefined, aligned: undefined, confusion: { labels, counts } }
    const secret = DetailedResults.render(input({ edition: sick, columns: Scores.columns(sick), plot: "run", parts: [part] }))
    expect(secret).not.toContain("confusion matrix")
    expect(secret).toContain("entailment: your labels")
    // column sums: what the run said, not what the gold says
    const table = /your labels<\/h3><table>(.*?)<\/table>/.exec(secret)![1]
    expect([...table.matchAll(/<td class="num">(\d+)<\/td>/g)].map((m) => Number(m[1]))).toEqual([8, 8, 12])
    expect(DetailedResults.render(input({ edition: sick, columns: Scores.columns(sick), plot: "points", parts: [part] }))).toContain("entailment: confusion matrix")
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
    const svg = DetailedResults.scatter("big", gold, gold, edition.scale)
    expect(svg.match(/h0/g)!.length).toBeLessThanOrEqual(DetailedResults.MAX_POINTS)
    expect(svg).toContain(`1 in 4 of ${n} pairs`)
  })
})
