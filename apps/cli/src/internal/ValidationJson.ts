/**
 * The `--json` document of `stseval validate` (schema: docs/schemas/validation.schema.json).
 */
import { Schema } from "effect"
import { Issue } from "@stseval/formats"
import { Validation } from "@stseval/scoring"

export const FORMAT = "stseval/validation@1"

const Part = Schema.Struct({
  /** dataset / track name (STS) or subtask (SICK: relatedness, entailment) */
  name: Schema.String,
  status: Schema.Literals(["scored", "not-scored", "not-evaluated", "missing"]),
  /** pairs that will be scored */
  pairs: Schema.Int,
  /** the run's lines that will be scored (STS 2017 track 6), 1-based inclusive */
  linesScored: Schema.optionalKey(Schema.Tuple([Schema.Int, Schema.Int])),
  reason: Schema.optionalKey(Schema.String)
})

const Run = Schema.Struct({
  id: Schema.String,
  team: Schema.String,
  run: Schema.NullOr(Schema.Int),
  primary: Schema.Boolean,
  late: Schema.Boolean,
  corrected: Schema.Boolean,
  path: Schema.String,
  /** `valid`: no error; `invalid`: some part will not be scored; `failed`: nothing can be scored */
  status: Schema.Literals(["valid", "invalid", "failed"]),
  failure: Schema.optionalKey(Schema.String),
  parts: Schema.Array(Part),
  errors: Schema.Array(Issue.Issue),
  warnings: Schema.Array(Issue.Issue),
  infos: Schema.Array(Issue.Issue)
})

export const ValidationResults = Schema.Struct({
  format: Schema.Literal(FORMAT),
  edition: Schema.String,
  gold: Schema.Struct({ path: Schema.optionalKey(Schema.String), issues: Schema.Array(Issue.Issue) }),
  /** issues about the submissions as a whole (run limits, entries that are not runs) */
  issues: Schema.Array(Issue.Issue),
  runs: Schema.Array(Run),
  valid: Schema.Boolean
})
export type ValidationResults = typeof ValidationResults.Type

const bySeverity = (list: ReadonlyArray<Issue.Issue>, s: Issue.Severity) => list.filter((i) => i.severity === s)

export const runToJson = (v: Validation.RunValidation): typeof Run.Type => {
  const all = Validation.allIssues(v)
  const parts: Array<typeof Part.Type> = []
  if (v.sick !== undefined) {
    for (const [name, s] of [["relatedness", v.sick.relatedness], ["entailment", v.sick.entailment]] as const) {
      parts.push({ name, status: s.status, pairs: s.pairs, ...(s.reason !== undefined ? { reason: s.reason } : {}) })
    }
  }
  for (const d of v.datasets) {
    parts.push({
      name: d.dataset,
      status: d.status,
      pairs: d.pairs,
      ...(d.linesScored !== undefined ? { linesScored: [d.linesScored[0], d.linesScored[1]] as const } : {}),
      ...(d.reason !== undefined ? { reason: d.reason } : {})
    })
  }
  return {
    id: v.meta.id,
    team: v.meta.team,
    run: v.meta.run ?? null,
    primary: v.meta.primary,
    late: v.meta.late,
    corrected: v.meta.corrected,
    path: v.path,
    status: v.failed ? "failed" : Issue.hasErrors(all) ? "invalid" : "valid",
    ...(v.failure !== undefined ? { failure: v.failure } : {}),
    parts,
    errors: bySeverity(all, "error"),
    warnings: bySeverity(all, "warning"),
    infos: bySeverity(all, "info")
  }
}

export const jsonSchema = () => Schema.toJsonSchemaDocument(ValidationResults)
