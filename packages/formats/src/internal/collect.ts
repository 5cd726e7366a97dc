/**
 * An issue list with a cap per kind of issue, so that a hostile or badly broken file (a million bad
 * lines) gives a readable report and bounded memory: the first `limit` issues of each
 * (severity, code, field) are kept, the rest are counted and summed up in one closing issue whose
 * `count` is the number of lines it stands for (so `Issue.count` gives the true total).
 *
 * @internal
 */
import * as Issue from "../Issue.js"

export const DEFAULT_LIMIT = 50

export class Collector {
  private readonly issues: Array<Issue.Issue> = []
  private readonly counts = new Map<string, number>()
  private readonly suppressed = new Map<string, { first: Issue.Issue; count: number }>()

  constructor(private readonly limit = DEFAULT_LIMIT) {}

  add(issue: Issue.Issue): void {
    const key = `${issue.severity}\u0000${issue.code}\u0000${issue.field ?? ""}`
    const seen = this.counts.get(key) ?? 0
    this.counts.set(key, seen + 1)
    if (seen < this.limit) {
      this.issues.push(issue)
      return
    }
    const s = this.suppressed.get(key)
    if (s === undefined) this.suppressed.set(key, { first: issue, count: 1 })
    else s.count++
  }

  get hasErrors(): boolean {
    return Issue.hasErrors(this.issues)
  }

  done(): ReadonlyArray<Issue.Issue> {
    const out = [...this.issues]
    for (const { first, count } of this.suppressed.values()) {
      out.push(
        Issue.make(
          first.severity,
          first.code,
          first.file,
          `${count} more line${count === 1 ? "" : "s"} with the same problem (${first.code}${first.field !== undefined ? `, ${first.field}` : ""}) not listed`,
          {
            ...(first.field !== undefined ? { field: first.field } : {}),
            ...(first.expected !== undefined ? { expected: first.expected } : {}),
            count
          }
        )
      )
    }
    return out
  }
}
