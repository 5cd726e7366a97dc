/**
 * What the engine reads from a registry edition. Nothing here branches on an edition's id: a user
 * edition works like a built-in one.
 *
 * @internal
 */
import { Registry } from "@stseval/formats"

export type Edition = Registry.TaskEdition
export type DatasetSpec = Registry.DatasetSpec

/** Labelled cross-dataset aggregates (SPEC §3). */
export type AggregateName = "wmean" | "mean" | "pooled" | "allnrm"

/** The headline (first) ranking: STS `similarity`; for SICK `relatedness` (entailment is the second). */
export const headline = (edition: Edition): Registry.Ranking => edition.ranking[0]

/**
 * True when the headline ranking orders runs in each dataset on its own (SemEval-2024 Task 1, per
 * language): each dataset's figure is then an official figure of its own, and the aggregate is
 * reported only labelled unofficial.
 */
export const perDataset = (edition: Edition): boolean => Registry.isRankedPerDataset(headline(edition))

/** The correlation the headline ranking orders by (Pearson, or Spearman for SemRel). */
export const correlationOf = (edition: Edition): "pearson" | "spearman" => (headline(edition).metric === "spearman" ? "spearman" : "pearson")

/** The rule that makes the official figure of an STS edition from its datasets. */
export const officialAggregate = (edition: Edition): Registry.Aggregate => headline(edition).aggregate

/**
 * Aggregates reported beside the official one: every multi-dataset STS edition gets `wmean`,
 * `mean` and `pooled` (always labelled); `allnrm` when the edition names it (STS 2012).
 */
export const reportedAggregates = (edition: Edition): ReadonlyArray<AggregateName> => {
  if (edition.family !== "sts" || edition.datasets.length < 2) return []
  // ranked per dataset: only the ranking's own rule over datasets, labelled unofficial (scoreValidated)
  if (perDataset(edition)) return []
  const named = new Set<string>(edition.ranking.flatMap((r) => [r.aggregate, ...(r.alsoAggregate ?? [])]))
  return named.has("allnrm") ? ["wmean", "mean", "pooled", "allnrm"] : ["wmean", "mean", "pooled"]
}
