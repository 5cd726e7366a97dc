/**
 * What the engine reads from a registry edition: its rankings, their names and the aggregates each
 * reports. Nothing here branches on an edition's id or a format: a user edition works like a
 * built-in one.
 *
 * @internal
 */
import { Registry } from "@stseval/formats"
import { Metrics } from "@stseval/metrics"
import type { Metric } from "@stseval/metrics"

export type Edition = Registry.TaskEdition
export type DatasetSpec = Registry.DatasetSpec

/** Labelled cross-dataset aggregates (SPEC §3). */
export type AggregateName = "wmean" | "mean" | "pooled" | "allnrm"

/**
 * True when the headline (first) ranking orders runs in each dataset on its own (SemEval-2024 Task 1, per
 * language): each dataset's figure is then an official figure of its own, and the aggregate is
 * reported only labelled unofficial.
 */
export const perDataset = (edition: Edition): boolean => Registry.isRankedPerDataset(edition.ranking[0])

/** The metric descriptor a ranking orders by. */
export const metricOf = (ranking: Registry.Ranking): Metric.Metric => Metrics.getOrThrow(ranking.metric)

/**
 * The name of a ranking's official figure: `official` when the edition has one ranking (STS, STS-B),
 * else the ranking's subtask (SICK: `relatedness`, `entailment`). A ranking per dataset names each
 * dataset's figure by the dataset instead.
 */
export const rankingName = (edition: Edition, ranking: Registry.Ranking): string => (edition.ranking.length === 1 ? "official" : ranking.subtask)

/**
 * Aggregates reported beside the official one, for a ranking over several datasets: `wmean`,
 * `mean` and `pooled` when the metric is a correlation (else `wmean` and `mean`), and `allnrm` when
 * the ranking names it (STS 2012). None for a ranking per dataset (its rule over the datasets is
 * reported on its own, labelled unofficial) or over one dataset.
 */
export const reportedAggregates = (edition: Edition, ranking: Registry.Ranking): ReadonlyArray<AggregateName> => {
  if (Registry.datasetsOf(edition, ranking).length < 2 || Registry.isRankedPerDataset(ranking)) return []
  const correlation = metricOf(ranking).correlation
  const named = new Set<string>([ranking.aggregate, ...(ranking.alsoAggregate ?? [])])
  return correlation ? (named.has("allnrm") ? ["wmean", "mean", "pooled", "allnrm"] : ["wmean", "mean", "pooled"]) : ["wmean", "mean"]
}

/**
 * The fewest scored pairs a metric's figure means anything on: a correlation needs 3 (of 2 points
 * it is always +1 or -1, of 1 undefined), any other metric 1. Scoring and the intervals both
 * read it, so a dataset below it is invalid in every output alike.
 */
export const leastPairs = (metric: string): number => (Metrics.get(metric)?.correlation === true ? 3 : 1)

/** The fewest pairs a dataset of this ranking needs: the most any of its metrics needs. */
export const leastPairsOf = (ranking: Registry.Ranking): number => Math.max(...Registry.metricsOf(ranking).map(leastPairs))
