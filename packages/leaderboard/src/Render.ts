/**
 * Markdown and HTML of a leaderboard. `Renderer` is an Effect reference: the default is the
 * minimal renderer below; `ScoringAdapter` can swap in `@stseval/tables`'s tables.
 *
 * @since 0.1.0
 */
import type { Registry } from "@stseval/formats"
import { Style, Uncertainty } from "@stseval/scoring"
import { Layouts } from "@stseval/tables"
import { Context } from "effect"
import type { Flag, Leaderboard, LeaderboardEntry } from "./Leaderboard.js"

/**
 * @example
 * ```ts
 * import { Leaderboard, Render } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard
 * const rendered: Render.Rendered = Render.minimal.render(board)
 * ```
 * @since 0.1.0
 */
export interface Rendered {
  readonly md: string
  readonly html: string
}

/**
 * A renderer; `edition` (the watcher's) gives the published number style.
 *
 * @example
 * ```ts
 * import { Leaderboard, Render } from "@stseval/leaderboard"
 *
 * // a renderer of one's own: the watcher writes what it gives
 * const plain: Render.RendererShape = { render: (board: Leaderboard.Leaderboard) => ({ md: `${board.task}\n`, html: `<p>${Render.escapeHtml(board.task)}</p>` }) }
 * ```
 * @since 0.1.0
 */
export interface RendererShape {
  readonly render: (board: Leaderboard, edition?: Registry.TaskEdition) => Rendered
}

/**
 * The number style of a figure named `metric` (`pearson`, `mean`, `accuracy`...): scoring's
 * `Style`, the one style of every output; without an edition, r to 3 decimals.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Render } from "@stseval/leaderboard"
 *
 * Render.styleOf(Registry.get("sts2017"), "pearson") // r x 100, 2 decimals, as STS 2017 printed it
 * ```
 * @since 0.2.0
 */
export const styleOf = (edition: Registry.TaskEdition | undefined, metric: string): Style.NumberStyle =>
  Style.of(edition ?? { published: { style: "r3" } }, Style.kindOf(metric))

/** Published tables mark a late or corrected run with `*`, a post-deadline one with a dagger. */
const marks = (flags: ReadonlyArray<Flag>): string =>
  `${flags.includes("late") || flags.includes("corrected") ? "*" : ""}${flags.includes("post-deadline") ? "†" : ""}`

/** A figure in its style, with its interval when it has one (`--ci`): `82.64 [79.10, 85.83]`. */
const fmt = (f: { readonly value: number | null; readonly ci?: { readonly low: number; readonly high: number } | null | undefined }, style: Style.NumberStyle): string =>
  f.value === null
    ? "–"
    : `${Style.format(f.value, style)}${f.ci != null ? ` [${Style.format(f.ci.low, style)}, ${Style.format(f.ci.high, style)}]` : ""}`

/** The rank range (`--ci`): `1-3`, `2`, or empty for a run that is not ranked. */
const range = (e: LeaderboardEntry): string => (e.rankInterval !== undefined ? Uncertainty.formatRankInterval(e.rankInterval) : "")

/** `≈` after a run whose rank interval overlaps the best run's (as `report --ci` marks it). */
const overlaps = (e: LeaderboardEntry): string => (e.overlapsBest === true ? " \u2248" : "")

/** What `≈`, the rank range and the intervals are (the footnotes of `report --ci`) and their signature; nothing without `--ci`. */
const intervalsNote = (board: Leaderboard): string | undefined =>
  board.intervals === undefined
    ? undefined
    : [
        ...Layouts.intervalFootnotes(board.intervals, { overlapsBest: board.rankings.some((r) => r.entries.some((e) => e.overlapsBest === true)), range: true }),
        `Intervals' signature: ${board.intervals.signature}`
      ].join(" ")

const mdCell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ")

/**
 * The minimal Markdown rendering: one table per ranking, then the runs that failed validation with
 * their errors (or, in the hidden phase, every run's validation status).
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Leaderboard, Render } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard
 * const md = Render.markdown(board, Registry.get("sick2014"))
 * ```
 * @since 0.1.0
 */
export const markdown = (board: Leaderboard, edition?: Registry.TaskEdition): string => {
  const out: Array<string> = []
  out.push(`# Leaderboard: ${board.task}${board.view === "public" && board.hidden ? " (hidden phase: validation only)" : ""}`, "")
  out.push(
    `${board.counts.runs} runs: ${board.counts.scored} scored, ${board.counts.failed} failed${board.hidden && board.view === "public" ? "" : `, ${board.counts.ranked} ranked`}.` +
      ` Run limit ${board.runLimit} per team${board.deadline !== null ? `; deadline ${board.deadline}` : ""}. \`*\` late or corrected, \`†\` after the deadline.`,
    ""
  )
  const ci = board.intervals !== undefined
  for (const r of board.rankings) {
    out.push(
      `## ${r.ranking} (${r.metric})`,
      "",
      `| Rank |${ci ? " Rank range |" : ""} Run | Team | Primary | ${r.metric} | Note |`,
      `|---:|${ci ? "---:|" : ""}---|---|:---:|---:|---|`
    )
    for (const e of r.entries) out.push(row(e, ci, styleOf(edition, r.metric)))
    out.push("")
  }
  const note = intervalsNote(board)
  if (note !== undefined) out.push(note, "")
  const shown = board.hidden && board.view === "public" ? board.runs : board.runs.filter((r) => r.status === "failed" || r.errors.length > 0)
  if (shown.length > 0) {
    out.push(board.hidden && board.view === "public" ? "## Runs" : "## Runs with errors", "", "| Run | Team | Status | Errors |", "|---|---|---|---|")
    for (const r of shown) {
      const errors = r.errors.map((i) => `${i.file}${i.line !== undefined ? `:${i.line}` : ""}: ${i.message}`).join("<br>")
      out.push(`| ${mdCell(r.id)}${marks(r.flags)} | ${mdCell(r.team)} | ${r.status === "scored" ? "valid" : "failed"} | ${mdCell(errors)} |`)
    }
    out.push("")
  }
  return out.join("\n")
}

const row = (e: LeaderboardEntry, ci: boolean, style: Style.NumberStyle): string =>
  `| ${e.rank ?? ""} |${ci ? ` ${range(e)} |` : ""} ${mdCell(e.id)}${marks(e.flags)}${overlaps(e)} | ${mdCell(e.team)} | ${e.primary ? "yes" : ""} | ${fmt(e, style)} | ${mdCell(e.reason ?? "")} |`

/**
 * @example
 * ```ts
 * import { Render } from "@stseval/leaderboard"
 *
 * Render.escapeHtml("<b>team</b>") // "&lt;b&gt;team&lt;/b&gt;"
 * ```
 * @since 0.1.0
 */
export const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;")

/**
 * The minimal HTML rendering: a self-contained page with the same tables as `markdown`.
 *
 * @example
 * ```ts
 * import { Registry } from "@stseval/formats"
 * import { Leaderboard, Render } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard
 * const page = Render.html(board, Registry.get("sick2014")) // reloads itself, no external request
 * ```
 * @since 0.1.0
 */
export const html = (board: Leaderboard, edition?: Registry.TaskEdition): string => {
  const e = escapeHtml
  const parts: Array<string> = []
  const hiddenPublic = board.hidden && board.view === "public"
  parts.push(
    "<!doctype html>",
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>Leaderboard: ${e(board.task)}</title>`,
    "<style>body{font-family:system-ui,sans-serif;margin:2em}table{border-collapse:collapse;margin-bottom:2em}th,td{border:1px solid #ccc;padding:.3em .6em}td.num{text-align:right;font-variant-numeric:tabular-nums}</style>",
    "</head><body>",
    `<h1>Leaderboard: ${e(board.task)}${hiddenPublic ? " (hidden phase: validation only)" : ""}</h1>`,
    `<p>${board.counts.runs} runs: ${board.counts.scored} scored, ${board.counts.failed} failed${hiddenPublic ? "" : `, ${board.counts.ranked} ranked`}. Run limit ${board.runLimit} per team${board.deadline !== null ? `; deadline ${e(board.deadline)}` : ""}. * late or corrected, † after the deadline.</p>`
  )
  const ci = board.intervals !== undefined
  for (const r of board.rankings) {
    const style = styleOf(edition, r.metric)
    parts.push(
      `<h2>${e(r.ranking)} (${e(r.metric)})</h2>`,
      `<table><thead><tr><th>Rank</th>${ci ? "<th>Rank range</th>" : ""}<th>Run</th><th>Team</th><th>Primary</th><th>${e(r.metric)}</th><th>Note</th></tr></thead><tbody>`
    )
    for (const x of r.entries) {
      parts.push(
        `<tr><td class="num">${x.rank ?? ""}</td>${ci ? `<td class="num">${range(x)}</td>` : ""}<td>${e(x.id)}${marks(x.flags)}${overlaps(x)}</td><td>${e(x.team)}</td><td>${x.primary ? "yes" : ""}</td><td class="num">${fmt(x, style)}</td><td>${e(x.reason ?? "")}</td></tr>`
      )
    }
    parts.push("</tbody></table>")
  }
  const note = intervalsNote(board)
  if (note !== undefined) parts.push(`<p class="intervals">${e(note)}</p>`)
  const shown = hiddenPublic ? board.runs : board.runs.filter((r) => r.status === "failed" || r.errors.length > 0)
  if (shown.length > 0) {
    parts.push(`<h2>${hiddenPublic ? "Runs" : "Runs with errors"}</h2>`, "<table><thead><tr><th>Run</th><th>Team</th><th>Status</th><th>Errors</th></tr></thead><tbody>")
    for (const r of shown) {
      const errors = r.errors.map((i) => e(`${i.file}${i.line !== undefined ? `:${i.line}` : ""}: ${i.message}`)).join("<br>")
      parts.push(`<tr><td>${e(r.id)}${marks(r.flags)}</td><td>${e(r.team)}</td><td>${r.status === "scored" ? "valid" : "failed"}</td><td>${errors}</td></tr>`)
    }
    parts.push("</tbody></table>")
  }
  parts.push("</body></html>", "")
  return parts.join("\n")
}

/**
 * The minimal renderer.
 *
 * @example
 * ```ts
 * import { Leaderboard, Render } from "@stseval/leaderboard"
 *
 * declare const board: Leaderboard.Leaderboard
 * const { md, html } = Render.minimal.render(board)
 * ```
 * @since 0.1.0
 */
export const minimal: RendererShape = { render: (board, edition) => ({ md: markdown(board, edition), html: html(board, edition) }) }

/**
 * The renderer the watcher uses; defaults to `minimal`.
 *
 * @example
 * ```ts
 * import { Render, Watcher, ScoringAdapter } from "@stseval/leaderboard"
 * import { Effect } from "effect"
 *
 * // the minimal renderer by default; the scoring adapter's draws the papers' tables
 * const watched = Watcher.watch({ folder: "submissions", out: "board", once: true }).pipe(
 *   Effect.provideService(Render.Renderer, Render.minimal),
 *   Effect.provide(ScoringAdapter.layer({ task: "sick2014", gold: "SICK_test_annotated.txt" }))
 * )
 * ```
 * @since 0.1.0
 */
export const Renderer = Context.Reference<RendererShape>("@stseval/leaderboard/Renderer", { defaultValue: () => minimal })
