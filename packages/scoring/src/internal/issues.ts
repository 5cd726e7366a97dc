/**
 * Issue helpers shared by the validators.
 *
 * @internal
 */
import type { Issue } from "@stseval/formats"

/** Pair-level alignment issues kept one by one before they are summed up (a run for the wrong set
 * would otherwise list every one of 4927 pair IDs). */
export const PAIR_ISSUE_LIMIT = 20

/**
 * Keep the first `limit` issues of a list of same-kind issues, then one closing issue that counts
 * the rest, so that reports stay readable.
 */
export const capped = (
  issues: ReadonlyArray<Issue.Issue>,
  summary: (more: number, total: number) => Issue.Issue,
  limit = PAIR_ISSUE_LIMIT
): ReadonlyArray<Issue.Issue> =>
  issues.length <= limit ? issues : [...issues.slice(0, limit), summary(issues.length - limit, issues.length)]

export const errors = (issues: ReadonlyArray<Issue.Issue>) => issues.filter((i) => i.severity === "error")

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** "x, y and z" */
export const listing = (items: ReadonlyArray<string>): string =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`
