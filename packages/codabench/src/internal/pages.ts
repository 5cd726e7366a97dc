/**
 * The competition site's pages, written from the edition the competition scores and the board it
 * ranks: what a run looks like (its files, their names and their format, from the edition's gold
 * format and run layout), what the leaderboard ranks and how each column is computed. Nothing here
 * names an edition: everything comes from the edition's data.
 *
 * @internal
 */
import { Registry } from "@stseval/formats"
import { Metrics } from "@stseval/metrics"
import type * as Scores from "../Scores.js"

/** A metric as the pages name it: its registry label (`Pearson`, `Kendall's tau-b`, `MSE`). */
const metricName = (name: string): string => Metrics.get(name)?.label ?? name

/** How an aggregate combines the per-dataset figures (`metric`: the ranking's metric). */
export const describeAggregate = (rule: Registry.Aggregate, metric: string, missing: Registry.TaskEdition["missingDataset"], scaled = ""): string => {
  const m = `${metricName(metric)}${scaled}`
  const zero = Metrics.get(metric)?.missingValue ?? 0
  const whenMissing = missing === "zero" ? `; a dataset not submitted counts as ${zero}` : "; it needs a run file for every dataset"
  switch (rule) {
    case "wmean":
      return `the mean of the per-dataset ${m}, weighted by each dataset's scored pairs${whenMissing}`
    case "mean":
      return `the mean of the per-dataset ${m}${whenMissing}`
    case "pooled":
      return `${m} over the pairs of every dataset pooled together (ALL)${whenMissing}`
    case "allnrm":
      return `${m} over every dataset pooled after fitting each dataset's run scores to its gold by least squares (ALLnrm)${whenMissing}`
    case "single":
      return `${m} on the one dataset`
  }
}

/** What a leaderboard column shows, in words. */
export const describeColumn = (edition: Registry.TaskEdition, c: Scores.Column): string => {
  const f = c.figure
  const scaled = c.scale === 100 ? " x 100" : ""
  switch (f._tag) {
    case "dataset": {
      const m = Metrics.get(f.metric)
      const how = m?.display.style === "percent" ? ", percent" : m?.display.style === "correlation" ? scaled : ""
      return `${metricName(f.metric)}${how} on ${f.dataset}${m?.direction === "lower" ? " (lower is better)" : ""}`
    }
    case "computed":
      return "how many of the other columns have a figure: on a tie of the primary figure, a submission with every figure is listed above one without some (Codabench sorts an empty figure first)"
    case "official":
    case "aggregate": {
      const ranking = edition.ranking.find((r) => (edition.ranking.length === 1 ? "official" : r.subtask) === f.ranking) ?? edition.ranking[0]
      const rule = f._tag === "official" ? ranking.aggregate : f.name
      return describeAggregate(rule, ranking.metric, edition.missingDataset, scaled)
    }
  }
}

/**
 * The files of a run and how each is written, from the edition's run layout (one file or one per
 * dataset) and each dataset's format (`Format.runLayout`).
 */
const runFormat = (edition: Registry.TaskEdition): string => {
  const scored = edition.datasets.filter((d) => d.goldNotPublic === undefined)
  const input = (d: Registry.DatasetSpec) => (d.input !== undefined ? ` (the test input \`${d.input.split("/").pop()}\`)` : "")
  const layouts = [...new Set(scored.map((d) => Registry.formatOf(edition, d).runLayout))]
  if (edition.submission === "file") {
    const d = scored[0] ?? edition.datasets[0]
    return `one file (any name, e.g. \`${d.run}\`)${input(d)}: ${layouts.join("; ")}.`
  }
  const ranked = Registry.isRankedPerDataset(edition.ranking[0])
  const what = scored.every((d) => d.language !== undefined && d.language === d.name) ? "language" : "dataset"
  return [
    ranked ? `one file per ${what} you enter (any subset), named exactly:` : `one file per ${what}, named exactly:`,
    "",
    ...scored.map((d) => `- \`${d.run}\`: ${d.language !== undefined && d.language !== d.name ? `${d.name} (${d.language})` : d.name}${input(d)}`),
    "",
    layouts.length === 1 ? `Each file: ${layouts[0]}.` : layouts.map((l) => `- ${l}`).join("\n")
  ].join("\n")
}

/** The pages' Markdown. */
export const pageTexts = (
  edition: Registry.TaskEdition,
  board: Scores.Board,
  withDev: boolean,
  /** a line on what this competition covers, when it is one of several (one per language) */
  scope?: string,
  /** the test phase: `sealed` (scored when it closes) or `live` (scored on upload, its gold downloadable) */
  test: "sealed" | "live" = "sealed",
  /** the phases' starting kits hold the check page (`Bundle.Options.checkPage`) */
  checkPage = false
): { readonly overview: string; readonly evaluation: string; readonly submitting: string; readonly terms: string } => {
  const scored = edition.datasets.filter((d) => d.goldNotPublic === undefined)
  const datasets = scored.map((d) => `- **${d.name}**${d.language !== undefined && d.language !== d.name ? ` (${d.language})` : ""}${d.pairs !== undefined ? `: ${d.pairs} pairs` : ""}`)
  const primary = board.columns[board.primary]
  const overview = [
    `# ${edition.title}`,
    "",
    edition.description ?? "",
    "",
    `Scores are on a ${edition.scale.min}-${edition.scale.max} scale.`,
    "",
    scored.length === 1 ? "Data set:" : "Datasets:",
    "",
    ...datasets,
    "",
    ...(scope !== undefined ? [scope, ""] : [])
  ].join("\n")
  const evaluation = [
    "# Evaluation",
    "",
    `Submissions are scored by stseval with the official rules of \`${edition.id}\`, exactly as \`stseval score --task ${edition.id}\` scores them; each submission's scoring output starts with the signature of the edition, gold and scorer used.`,
    "",
    `The leaderboard is ordered by **${primary.title}** (\`${primary.key}\`): ${board.description}.`,
    "",
    "| Leaderboard column | Key | Figure |",
    "|---|---|---|",
    ...board.columns.map((c, i) => `| ${c.title} | \`${c.key}\` | ${describeColumn(edition, c)}${i === board.primary ? " (orders the leaderboard)" : c.official ? " (official)" : ""} |`),
    "",
    `A submission for which ${primary.title} cannot be computed fails, with the reason: without it, it would be listed above every submission that has it. Any other figure that cannot be computed is left empty, and the detailed results say why.`,
    "A submission with an error (a file that cannot be read, a bad line, a missing or unknown pair, a file that is none of the files named on the Submitting page) is not scored: the scoring output and the detailed results list each error with its file and line. A submission that fails does not count against your limit.",
    "",
    test === "sealed"
      ? "**The test phase is sealed.** Its gold is not on Codabench while the phase is open: each submission is checked as the gold would check it (its files, lines and pair IDs) and told either what is wrong or that it was received and is valid. Valid submissions are scored when the test phase closes, in the Scoring phase, whose leaderboard then shows the test figures."
      : "**The test leaderboard is live, and the test gold is public.** Each test submission is scored on upload. The test gold is the test phase's reference data, which Codabench lets every participant of the competition (and anyone, once it is published) download.",
    "",
    `The detailed results of a submission can be read by every participant of the competition, and by anyone once it is public${test === "sealed" ? " (in the test phase they say whether the submission is valid, and nothing of the gold)" : ": in the test phase they hold the leaderboard's figures and your own scores, never single gold values"}.${withDev ? " In the development phase, whose gold you have, they also plot your run against it." : ""}`,
    ""
  ].join("\n")
  const submitting = [
    "# Submitting",
    "",
    `Upload a zip holding ${runFormat(edition)}`,
    "",
    ...(withDev ? ["In the development phase, send the same file(s) for the development input.", ""] : []),
    edition.submission === "file"
      ? "Put the file at the top level of the zip, and nothing else: a zip of several files fails."
      : `Put the file${scored.length === 1 ? "" : "s"} at the top level of the zip. A file with any other name fails the submission (the error names the closest expected name).`,
    "",
    `The test phase accepts ${edition.runLimit} submission${edition.runLimit === 1 ? "" : "s"} per participant.${withDev ? " The development phase scores the development data and accepts more." : ""}`,
    "",
    ...(checkPage
      ? [
          "## Check a run before submitting",
          "",
          `Download the starting kit of the ${withDev ? "development" : "test"} phase and open \`check.html\` in a browser (it works offline, from your disk). Drop your run files, your run's folder or your zip on it: it shows what the scorer will say of them (each problem with its file, line and what was expected) and, against the ${withDev ? "development" : "test"} gold it holds, your figures with 95% bootstrap intervals, exactly as \`stseval score --ci 95\` prints them. It runs the scorer's own code in your browser: nothing is uploaded, and a failed check costs no submission.`,
          ""
        ]
      : [])
  ].join("\n")
  const terms = [
    "# Terms and conditions",
    "",
    "Organisers: replace this text with the terms of your task (data licence, publication of results, system description papers).",
    ""
  ].join("\n")
  return { overview, evaluation, submitting, terms }
}
