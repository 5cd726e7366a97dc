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
 * Same-kind issues capped while they are found: the first `limit` are made and kept, the rest only
 * counted (a run for the wrong set would otherwise make an issue for each of 4927 pair IDs), then
 * one closing issue stands for the rest (its `count`, so that `Issue.count` gives the true total).
 */
export const capped = (limit = PAIR_ISSUE_LIMIT) => {
  const kept: Array<Issue.Issue> = []
  let total = 0
  return {
    /** one more finding; `make` runs only for those kept */
    add: (make: () => Issue.Issue): void => {
      total++
      if (kept.length < limit) kept.push(make())
    },
    get total() {
      return total
    },
    /** the kept issues, then `summary(more, total)` when some were only counted */
    done: (summary: (more: number, total: number) => Issue.Issue): ReadonlyArray<Issue.Issue> =>
      total <= kept.length ? kept : [...kept, summary(total - kept.length, total)]
  }
}

export const errors = (issues: ReadonlyArray<Issue.Issue>) => issues.filter((i) => i.severity === "error")

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** "x, y and z" */
export const listing = (items: ReadonlyArray<string>): string =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`
