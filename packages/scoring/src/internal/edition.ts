/**
 * What the engine reads from a registry edition. Nothing here branches on an edition's id: a user
 * edition works like a built-in one.
 *
 * @internal
 */
import type { Registry } from "@stseval/formats"

export type Edition = Registry.TaskEdition
export type DatasetSpec = Registry.DatasetSpec

/** Labelled cross-dataset aggregates (SPEC §3). */
export type AggregateName = "wmean" | "mean" | "pooled" | "allnrm"

/** The headline (first) ranking: STS `similarity`; for SICK `relatedness` (entailment is the second). */
export const headline = (edition: Edition): Registry.Ranking => edition.ranking[0]

/** The rule that makes the official figure of an STS edition from its datasets. */
export const officialAggregate = (edition: Edition): Registry.Aggregate => headline(edition).aggregate

/**
 * Aggregates reported beside the official one: every multi-dataset STS edition gets `wmean`,
 * `mean` and `pooled` (always labelled); `allnrm` when the edition names it (STS 2012).
 */
export const reportedAggregates = (edition: Edition): ReadonlyArray<AggregateName> => {
  if (edition.family !== "sts" || edition.datasets.length < 2) return []
  const named = new Set<string>(edition.ranking.flatMap((r) => [r.aggregate, ...(r.alsoAggregate ?? [])]))
  return named.has("allnrm") ? ["wmean", "mean", "pooled", "allnrm"] : ["wmean", "mean", "pooled"]
}
