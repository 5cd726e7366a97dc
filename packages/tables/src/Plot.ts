/**
 * The one SVG plot module of every page stseval writes (the HTML report, the live leaderboard,
 * Codabench's detailed results): a scatter plot of a run against the gold, a histogram of a run's
 * own scores, an interval glyph (a figure with its interval, in a table cell) and a heat map of
 * p-values between runs. Each is pure (the same input gives the same bytes), inline SVG with its
 * text HTML-escaped (`Html.escape`), styled by `CSS`; one downsampling rule (`sample`) and one tick
 * rule (`ticks`, `tickText`: round values, never "-0.0") for all of them.
 *
 * Written here rather than with a plotting library: the pages are self-contained (a
 * Content-Security-Policy forbids every request and, on Codabench, every script), so the plots are
 * plain SVG strings, and the few shapes needed are shorter than any library's set-up.
 *
 * @since 0.3.0
 */
import { escape } from "./internal/escape.js"

/**
 * At most this many points are drawn per scatter plot (an even subsample beyond).
 *
 * @example
 * ```ts
 * import { Plot } from "@stseval/tables"
 *
 * const kept = Plot.sample(10_000, Plot.MAX_POINTS).indices.length // 2500
 * ```
 * @since 0.3.0
 */
export const MAX_POINTS = 2500

/**
 * Bins of a histogram.
 *
 * @example
 * ```ts
 * import { Plot } from "@stseval/tables"
 *
 * const width = (5 - 0) / Plot.BINS // 0.25 on a 0-5 scale
 * ```
 * @since 0.3.0
 */
export const BINS = 20

/**
 * The one downsampling rule: every `step`-th pair from the first, `step` = ceil(n / max), so at
 * most `max` pairs are kept, spread evenly over the file.
 *
 * @example
 * ```ts
 * import { Plot } from "@stseval/tables"
 *
 * Plot.sample(10, 4) // { step: 3, indices: [0, 3, 6, 9] }
 * ```
 * @since 0.3.0
 */
export const sample = (n: number, max: number = MAX_POINTS): { readonly step: number; readonly indices: ReadonlyArray<number> } => {
  const step = Math.max(1, Math.ceil(n / Math.max(1, max)))
  return { step, indices: Array.from({ length: Math.ceil(n / step) }, (_, k) => k * step) }
}

/**
 * Round tick values spanning [lo, hi] (1, 2, 2.5 or 5 times a power of ten apart).
 *
 * @example
 * ```ts
 * import { Plot } from "@stseval/tables"
 *
 * Plot.ticks(0, 5) // [0, 1, 2, 3, 4, 5]
 * ```
 * @since 0.3.0
 */
export const ticks = (lo: number, hi: number): ReadonlyArray<number> => {
  const span = hi - lo
  if (!(span > 0) || !Number.isFinite(span)) return [lo]
  const mag = 10 ** Math.floor(Math.log10(span / 5))
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => span / s <= 6) ?? 10 * mag
  const out: Array<number> = []
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) out.push(Number(t.toPrecision(12)))
  return out
}

/**
 * A tick as printed: as many decimals as the ticks' spacing needs, and never "-0" (a tick a hair
 * below zero is zero).
 *
 * @example
 * ```ts
 * import { Plot } from "@stseval/tables"
 *
 * Plot.tickText(-0.00001, 0.5) // "0.0", never "-0.0"
 * Plot.tickText(0.25, 0.25) // "0.25"
 * ```
 * @since 0.3.0
 */
export const tickText = (t: number, step: number): string => {
  // the decimals that print the spacing exactly (0.25 -> 2, 0.5 -> 1, 20 -> 0)
  let decimals = 0
  while (decimals < 6 && Math.abs(Math.round(step * 10 ** decimals) - step * 10 ** decimals) > 1e-6) decimals++
  const text = t.toFixed(decimals)
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text
}

const texts = (ts: ReadonlyArray<number>): ReadonlyArray<string> => ts.map((t) => tickText(t, ts.length > 1 ? ts[1] - ts[0] : 1))

/** The range of values with the scale's ends included (a degenerate range is widened). */
const range = (xs: ArrayLike<number>, extra: ReadonlyArray<number>): readonly [number, number] => {
  let lo = Infinity
  let hi = -Infinity
  for (const x of [...extra, ...Array.from(xs)]) {
    if (!Number.isFinite(x)) continue
    if (x < lo) lo = x
    if (x > hi) hi = x
  }
  if (!Number.isFinite(lo)) return [0, 1]
  return lo === hi ? [lo - 1, hi + 1] : [lo, hi]
}

/**
 * The size of a plot in px.
 *
 * @since 0.3.0
 */
export interface Size {
  readonly width: number
  readonly height: number
}

/**
 * The default plot size.
 *
 * @example
 * ```ts
 * import { Plot } from "@stseval/tables"
 *
 * const { width, height } = Plot.defaultSize // 360 x 300
 * ```
 * @since 0.3.0
 */
export const defaultSize: Size = { width: 360, height: 300 }

/** The axes of a plot over [x0, x1] x [y0, y1]: scales, and the SVG around the marks. */
const frame = (x0: number, x1: number, y0: number, y1: number, size: Size) => {
  const W = size.width
  const H = size.height
  const left = 48
  const right = 12
  const topMargin = 24
  const bottom = 40
  const sx = (x: number) => left + ((x - x0) / (x1 - x0)) * (W - left - right)
  const sy = (y: number) => H - bottom - ((y - y0) / (y1 - y0)) * (H - topMargin - bottom)
  const svg = (cls: string, label: string, heading: string, xLabel: string, yLabel: string, marks: string) => {
    const xs = ticks(x0, x1)
    const ys = ticks(y0, y1)
    const xt = texts(xs)
      .map((t, i) => `<line x1="${sx(xs[i]).toFixed(1)}" x2="${sx(xs[i]).toFixed(1)}" y1="${H - bottom}" y2="${H - bottom + 4}"/><text x="${sx(xs[i]).toFixed(1)}" y="${H - bottom + 16}" text-anchor="middle">${t}</text>`)
      .join("")
    const yt = texts(ys)
      .map((t, i) => `<line x1="${left - 4}" x2="${left}" y1="${sy(ys[i]).toFixed(1)}" y2="${sy(ys[i]).toFixed(1)}"/><text x="${left - 6}" y="${(sy(ys[i]) + 4).toFixed(1)}" text-anchor="end">${t}</text>`)
      .join("")
    return (
      `<svg class="plot ${cls}" xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${escape(label)}"><title>${escape(label)}</title>` +
      `<text x="${W / 2}" y="14" text-anchor="middle" class="t">${escape(heading)}</text>` +
      `<g class="axis"><line x1="${left}" x2="${W - right}" y1="${H - bottom}" y2="${H - bottom}"/><line x1="${left}" x2="${left}" y1="${topMargin}" y2="${H - bottom}"/>${xt}${yt}</g>` +
      `<text x="${(left + W - right) / 2}" y="${H - 4}" text-anchor="middle" class="axis-label">${escape(xLabel)}</text>` +
      `<text x="12" y="${(topMargin + H - bottom) / 2}" text-anchor="middle" class="axis-label" transform="rotate(-90 12 ${(topMargin + H - bottom) / 2})">${escape(yLabel)}</text>` +
      `${marks}</svg>`
    )
  }
  return { sx, sy, svg }
}

/**
 * A figure named by its metric for a caption: `ρ = 0.812`.
 *
 * @since 0.3.0
 */
export interface FigureText {
  /** the metric's symbol (`Metric.symbol`: r, rho, tau...) */
  readonly symbol: string
  /** the value as printed in the edition's style */
  readonly text: string
}

/**
 * One scatter plot's data: a run's scores against the gold on one dataset, with its title, the
 * figure shown in the heading and the task's scale.
 *
 * @since 0.3.0
 */
export interface ScatterInput {
  /** what is plotted (a run and a dataset) */
  readonly title: string
  /** gold (x) and run (y) scores, pair by pair (already downsampled when `step` > 1) */
  readonly gold: ArrayLike<number>
  readonly run: ArrayLike<number>
  /** pairs before downsampling (default: the arrays' length) */
  readonly pairs?: number | undefined
  /** 1 in `step` pairs is given (the arrays were downsampled by `sample`); default 1 */
  readonly step?: number | undefined
  /** the figure of the run on these pairs, named by its metric, in the heading */
  readonly figure?: FigureText | undefined
  /** the task's scale: both axes include it */
  readonly scale?: { readonly min: number; readonly max: number } | undefined
  readonly size?: Size | undefined
  /** at most this many points (`sample`) when the arrays are given whole; default `MAX_POINTS` */
  readonly maxPoints?: number | undefined
}

/**
 * A run's scores (y) against the gold (x): one point per pair, at most `maxPoints` (every k-th
 * pair beyond, `sample`), drawn in (gold, run) order rather than pair order (the page does not list
 * the pairs in the order of the gold file). The heading names the figure by its metric and says
 * how many pairs are drawn.
 *
 * @example
 * ```ts
 * import { Plot } from "@stseval/tables"
 *
 * const svg = Plot.scatter({ title: "ECNU/run1: en-en", gold: [0.2, 3.4, 4.8], run: [0.5, 3.1, 4.6], figure: { symbol: "r", text: "0.998" }, scale: { min: 0, max: 5 } })
 * ```
 * @since 0.3.0
 */
export const scatter = (input: ScatterInput): string => {
  const given = Math.min(input.gold.length, input.run.length)
  const { step: own, indices } = sample(given, input.maxPoints ?? MAX_POINTS)
  const step = (input.step ?? 1) * own
  const pairs = input.pairs ?? given
  const extra = input.scale !== undefined ? [input.scale.min, input.scale.max] : []
  const gold = indices.map((i) => input.gold[i])
  const run = indices.map((i) => input.run[i])
  const [x0, x1] = range(gold, extra)
  const [y0, y1] = range(run, extra)
  const f = frame(x0, x1, y0, y1, input.size ?? defaultSize)
  const order = gold.map((_, k) => k).sort((a, b) => gold[a] - gold[b] || run[a] - run[b])
  let path = ""
  for (const k of order) if (Number.isFinite(gold[k]) && Number.isFinite(run[k])) path += `M${f.sx(gold[k]).toFixed(1)} ${f.sy(run[k]).toFixed(1)}h0`
  const shown = step > 1 ? `1 in ${step} of ${pairs} pairs` : `${pairs} pairs`
  const figure = input.figure !== undefined ? `, ${input.figure.symbol} = ${input.figure.text}` : ""
  return f.svg("scatter", `${input.title}: run against gold${figure} (${shown})`, `${input.title}${figure} (${shown})`, "gold score", "run score", `<path class="pts" d="${path}"/>`)
}

/**
 * A histogram of values over a scale (`BINS` bins, widened to the values' range), each bar with its
 * count as a tooltip: what a page whose gold is secret may show of a run (nothing in it depends on
 * the gold).
 *
 * @example
 * ```ts
 * import { Plot } from "@stseval/tables"
 *
 * const svg = Plot.histogram({ title: "test: your 3 scores", values: Float64Array.from([0.5, 3.1, 4.6]), scale: { min: 0, max: 5 } })
 * ```
 * @since 0.3.0
 */
export const histogram = (input: {
  readonly title: string
  readonly values: ArrayLike<number>
  readonly scale: { readonly min: number; readonly max: number }
  /** the x axis: default "score" */
  readonly xLabel?: string | undefined
  readonly size?: Size | undefined
}): string => {
  const [x0, x1] = range(input.values, [input.scale.min, input.scale.max])
  const counts = new Uint32Array(BINS)
  for (let i = 0; i < input.values.length; i++) {
    const v = input.values[i]
    if (Number.isFinite(v)) counts[Math.min(BINS - 1, Math.max(0, Math.floor(((v - x0) / (x1 - x0)) * BINS)))]++
  }
  let most = 1
  for (const c of counts) most = Math.max(most, c)
  const f = frame(x0, x1, 0, most, input.size ?? defaultSize)
  const width = (f.sx(x1) - f.sx(x0)) / BINS
  let bars = ""
  for (let b = 0; b < BINS; b++) {
    if (counts[b] === 0) continue
    const top = f.sy(counts[b])
    bars += `<rect x="${(f.sx(x0) + b * width).toFixed(1)}" y="${top.toFixed(1)}" width="${width.toFixed(1)}" height="${(f.sy(0) - top).toFixed(1)}"><title>${counts[b]}</title></rect>`
  }
  return f.svg("histogram", input.title, input.title, input.xLabel ?? "score", "pairs", `<g class="bars">${bars}</g>`)
}

/**
 * A figure with its interval, for a table cell: a whisker over the interval and a hollow diamond at
 * the figure (distinct from the best-figure bullet), on the column's shared scale `extent`.
 *
 * @example
 * ```ts
 * import { Plot } from "@stseval/tables"
 *
 * const glyph = Plot.interval(0.81, { low: 0.78, high: 0.84 }, [0.5, 0.9], "r 0.810, interval [0.780, 0.840]")
 * ```
 * @since 0.3.0
 */
export const interval = (value: number, ci: { readonly low: number; readonly high: number }, extent: readonly [number, number], label: string): string => {
  const w = 64
  const span = extent[1] - extent[0] || 1
  const X = (x: number) => (3 + ((x - extent[0]) / span) * (w - 6)).toFixed(1)
  const x = Number(X(value))
  return (
    `<svg class="ci" width="${w}" height="10" viewBox="0 0 ${w} 10" role="img" aria-label="${escape(label)}"><title>${escape(label)}</title>` +
    `<path d="M${X(ci.low)} 5H${X(ci.high)}M${X(ci.low)} 2V8M${X(ci.high)} 2V8" class="whisker"/>` +
    `<path d="M${x.toFixed(1)} 2L${(x + 3).toFixed(1)} 5L${x.toFixed(1)} 8L${(x - 3).toFixed(1)} 5Z" class="estimate"/></svg>`
  )
}

/**
 * p-values between runs on one figure, best first.
 *
 * @since 0.3.0
 */
export interface PValues {
  /** what was compared (a dataset's header) */
  readonly dataset: string
  /** the test as printed */
  readonly test: string
  readonly alpha: number
  readonly runs: ReadonlyArray<string>
  /** p[i][j]; NaN where the comparison could not be made */
  readonly p: ReadonlyArray<ReadonlyArray<number>>
}

const shorten = (s: string, n: number): string => (Array.from(s).length > n ? Array.from(s).slice(0, n - 1).join("") + "\u2026" : s)

/**
 * A heat-map colour: red for p <= alpha (significantly different), blue above, darker for smaller
 * p (-log10 p, capped at 4); grey where there is no p-value. The legend of `heatmap` says so.
 *
 * @example
 * ```ts
 * import { Plot } from "@stseval/tables"
 *
 * Plot.heat(0.001, 0.05) // a dark red: significantly different
 * Plot.heat(Number.NaN, 0.05) // "#cccccc": not compared
 * ```
 * @since 0.3.0
 */
export const heat = (p: number, alpha: number): string => {
  if (!Number.isFinite(p)) return "#cccccc"
  const t = Math.min(1, -Math.log10(Math.max(p, 1e-4)) / 4)
  if (p > alpha) return `rgb(${Math.round(235 - 40 * t)},${Math.round(240 - 30 * t)},${Math.round(250 - 10 * t)})`
  return `rgb(${Math.round(250 - 120 * t)},${Math.round(190 - 170 * t)},${Math.round(150 - 130 * t)})`
}

/**
 * The p-value matrix of one figure as a heat map (run labels shortened to `labelLength`, full text
 * in tooltips), with a legend of its colours.
 *
 * @example
 * ```ts
 * import { Plot } from "@stseval/tables"
 *
 * const svg = Plot.heatmap({ dataset: "en-en", test: "Williams' t", alpha: 0.05, runs: ["A/run1", "B/run1"], p: [[1, 0.0215], [0.0215, 1]] })
 * ```
 * @since 0.3.0
 */
export const heatmap = (mat: PValues, labelLength = 32): string => {
  const k = mat.runs.length
  const cell = Math.max(6, Math.min(22, Math.floor(640 / Math.max(1, k))))
  const left = 7 * Math.min(labelLength, mat.runs.reduce((w, r) => Math.max(w, Array.from(r).length), 4)) + 10
  const top = left
  const legend = 34
  const size = { w: Math.max(left + k * cell + 10, 330), h: top + k * cell + 10 + legend }
  const out: Array<string> = [
    `<svg class="heatmap" xmlns="http://www.w3.org/2000/svg" width="${size.w}" height="${size.h}" viewBox="0 0 ${size.w} ${size.h}" role="img" aria-label="${escape(`p-values (${mat.test}) between runs on ${mat.dataset}`)}">`,
    `<title>${escape(`${mat.dataset}: p-values of ${mat.test} between runs (red: p <= ${mat.alpha}, blue: p > ${mat.alpha}; darker = smaller p; grey: not compared)`)}</title>`
  ]
  // cell tooltips name runs by their short labels: with full names every cell would repeat them
  // (a long team name times runs squared); the labels' own tooltips keep the full text
  const short = mat.runs.map((r) => shorten(r, labelLength))
  mat.runs.forEach((r, i) => {
    const name = escape(short[i])
    out.push(`<text x="${left - 4}" y="${top + i * cell + cell * 0.7}" class="label" text-anchor="end">${name}<title>${escape(r)}</title></text>`)
    out.push(`<text transform="translate(${left + i * cell + cell * 0.7} ${top - 4}) rotate(-90)" class="label">${name}<title>${escape(r)}</title></text>`)
  })
  for (let i = 0; i < k; i++) {
    for (let j = 0; j < k; j++) {
      const p = mat.p[i]?.[j] ?? Number.NaN
      out.push(
        `<rect x="${left + j * cell}" y="${top + i * cell}" width="${cell - 1}" height="${cell - 1}" fill="${heat(p, mat.alpha)}"><title>${escape(
          `${short[i]} vs ${short[j]}: p = ${Number.isFinite(p) ? p.toPrecision(3) : "not computed"}`
        )}</title></rect>`
      )
    }
  }
  // the legend: what each colour means
  const y = top + k * cell + 16
  const key = (x: number, fill: string, text: string) => `<rect x="${x}" y="${y}" width="12" height="12" fill="${fill}"/><text x="${x + 16}" y="${y + 10}" class="label">${escape(text)}</text>`
  out.push(
    `<g class="legend">${key(4, heat(0.001, mat.alpha), `p \u2264 ${mat.alpha}`)}${key(84, heat(0.5, mat.alpha), `p > ${mat.alpha}`)}${key(164, heat(Number.NaN, mat.alpha), "not compared")}</g>`,
    "</svg>"
  )
  return out.join("")
}

/**
 * The plots' style, for a page that draws them.
 *
 * @example
 * ```ts
 * import { Plot } from "@stseval/tables"
 *
 * const page = `<style>${Plot.CSS}</style>${Plot.scatter({ title: "t", gold: [1, 2, 3], run: [1, 3, 2] })}`
 * ```
 * @since 0.3.0
 */
export const CSS =
  "svg.plot{margin:.5em 1em .5em 0}svg.plot text{font-size:11px;fill:#333}svg.plot .t{font-size:12px}svg.plot .axis line{stroke:#666}" +
  "svg.plot .pts{stroke:#1f5fbf;stroke-opacity:.55;stroke-width:3.5;stroke-linecap:round;fill:none}svg.plot .bars rect{fill:#1f5fbf}" +
  "svg.ci{vertical-align:middle;margin-left:.3em}svg.ci .whisker{stroke:#555;fill:none}svg.ci .estimate{fill:#fff;stroke:#1f5fbf;stroke-width:1.4}" +
  "svg.heatmap text{font-size:10px;fill:#333}"
