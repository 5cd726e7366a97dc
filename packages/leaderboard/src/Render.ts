/**
 * Markdown and HTML of a leaderboard. `Renderer` is an Effect reference: the default is the
 * minimal renderer below; `ScoringAdapter` can swap in `@stseval/tables`'s tables.
 *
 * @since 0.1.0
 */
import { Context } from "effect"
import type { Flag, Leaderboard, LeaderboardEntry } from "./Leaderboard.js"

/** @since 0.1.0 */
export interface Rendered {
  readonly md: string
  readonly html: string
}

/** @since 0.1.0 */
export interface RendererShape {
  readonly render: (board: Leaderboard) => Rendered
}

/** Published tables mark a late or corrected run with `*`, a post-deadline one with a dagger. */
const marks = (flags: ReadonlyArray<Flag>): string =>
  `${flags.includes("late") || flags.includes("corrected") ? "*" : ""}${flags.includes("post-deadline") ? "†" : ""}`

const fmt = (v: number | null): string => (v === null ? "–" : v.toFixed(4))

const mdCell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\r?\n/g, " ")

/**
 * The minimal Markdown rendering: one table per ranking, then the runs that failed validation with
 * their errors (or, in the hidden phase, every run's validation status).
 *
 * @since 0.1.0
 */
export const markdown = (board: Leaderboard): string => {
  const out: Array<string> = []
  out.push(`# Leaderboard: ${board.task}${board.view === "public" && board.hidden ? " (hidden phase: validation only)" : ""}`, "")
  out.push(
    `${board.counts.runs} runs: ${board.counts.scored} scored, ${board.counts.failed} failed${board.hidden && board.view === "public" ? "" : `, ${board.counts.ranked} ranked`}.` +
      ` Run limit ${board.runLimit} per team${board.deadline !== null ? `; deadline ${board.deadline}` : ""}. \`*\` late or corrected, \`†\` after the deadline.`,
    ""
  )
  for (const r of board.rankings) {
    out.push(`## ${r.ranking} (${r.metric})`, "", `| Rank | Run | Team | Primary | ${r.metric} | Note |`, "|---:|---|---|:---:|---:|---|")
    for (const e of r.entries) out.push(row(e))
    out.push("")
  }
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

const row = (e: LeaderboardEntry): string =>
  `| ${e.rank ?? ""} | ${mdCell(e.id)}${marks(e.flags)} | ${mdCell(e.team)} | ${e.primary ? "yes" : ""} | ${fmt(e.value)} | ${mdCell(e.reason ?? "")} |`

/** @since 0.1.0 */
export const escapeHtml = (s: string): string =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;")

/**
 * The minimal HTML rendering: a self-contained page with the same tables as `markdown`.
 *
 * @since 0.1.0
 */
export const html = (board: Leaderboard): string => {
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
  for (const r of board.rankings) {
    parts.push(`<h2>${e(r.ranking)} (${e(r.metric)})</h2>`, `<table><thead><tr><th>Rank</th><th>Run</th><th>Team</th><th>Primary</th><th>${e(r.metric)}</th><th>Note</th></tr></thead><tbody>`)
    for (const x of r.entries) {
      parts.push(
        `<tr><td class="num">${x.rank ?? ""}</td><td>${e(x.id)}${marks(x.flags)}</td><td>${e(x.team)}</td><td>${x.primary ? "yes" : ""}</td><td class="num">${fmt(x.value)}</td><td>${e(x.reason ?? "")}</td></tr>`
      )
    }
    parts.push("</tbody></table>")
  }
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

/** The minimal renderer. @since 0.1.0 */
export const minimal: RendererShape = { render: (board) => ({ md: markdown(board), html: html(board) }) }

/**
 * The renderer the watcher uses; defaults to `minimal`.
 *
 * @since 0.1.0
 */
export const Renderer = Context.Reference<RendererShape>("@stseval/leaderboard/Renderer", { defaultValue: () => minimal })
