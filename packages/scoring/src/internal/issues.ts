/**
 * Issue helpers shared by the validators.
 *
 * @internal
 */
import type { Issue } from "@stseval/formats"

export const errors = (issues: ReadonlyArray<Issue.Issue>) => issues.filter((i) => i.severity === "error")

export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/** "x, y and z" */
export const listing = (items: ReadonlyArray<string>): string =>
  items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`
