/**
 * The `--json` document of `stseval validate` (schema: docs/schemas/validation.schema.json).
 */
import { Schema } from "effect"
import { Issue } from "@stseval/formats"
import { ResultSchema, Signature } from "@stseval/scoring"
import type { Engine, ScoredRun } from "@stseval/scoring"

export const FORMAT = "stseval/validation@1"

const Part = Schema.Struct({
  /** dataset / track name (STS) or subtask (SICK: relatedness, entailment) */
  name: Schema.String,
  status: Schema.Literals(["scored", "not-scored", "missing", "no-gold"]),
  /** pairs that will be scored */
  pairs: Schema.Int,
  /** the run's lines that will be scored (STS 2017 track 6), 1-based inclusive */
  linesScored: Schema.optionalKey(Schema.Tuple([Schema.Int, Schema.Int])),
  reason: Schema.optionalKey(Schema.String)
})

const Run = Schema.Struct({
  ...ResultSchema.runIdentityFields,
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
  signature: Signature.Signature,
  gold: Schema.Struct({ path: Schema.optionalKey(Schema.String), issues: Schema.Array(Issue.Issue) }),
  /** issues about the submissions as a whole (run limits, entries that are not runs) */
  issues: Schema.Array(Issue.Issue),
  runs: Schema.Array(Run),
  valid: Schema.Boolean
})
export type ValidationResults = typeof ValidationResults.Type

/**
 * What `validate` says about one run: each dataset (subtask) and whether it will be scored, from
 * the engine's scored run (validation is scoring's first half; the run is validated once).
 */
export const runToJson = (run: ScoredRun.ScoredRun): typeof Run.Type => {
  const parts: Array<typeof Part.Type> = []
  for (const d of run.datasets) {
    parts.push({
      name: d.dataset,
      status: d.status,
      pairs: d.pairs,
      ...(d.linesScored !== undefined ? { linesScored: [d.linesScored[0], d.linesScored[1]] as const } : {}),
      ...(d.reason !== undefined ? { reason: d.reason } : {})
    })
  }
  return {
    id: run.meta.id,
    team: run.meta.team,
    run: run.meta.run ?? null,
    primary: run.meta.primary,
    late: run.meta.late,
    corrected: run.meta.corrected,
    postDeadline: run.meta.postDeadline,
    path: run.path,
    status: run.status === "failed" ? "failed" : run.errors.length > 0 ? "invalid" : "valid",
    ...(run.failure !== undefined ? { failure: run.failure } : {}),
    parts,
    errors: [...run.errors],
    warnings: [...run.warnings],
    infos: [...run.infos]
  }
}

/** The whole `validate --json` document. */
export const document = (results: Engine.Results): ValidationResults => {
  const runs = results.runs.map(runToJson)
  return {
    format: FORMAT,
    edition: results.edition.id,
    signature: results.signature,
    gold: { ...(results.goldPath !== undefined ? { path: results.goldPath } : {}), issues: [...results.gold.issues] },
    issues: [...results.issues],
    runs,
    // nothing given to check is not valid (an empty folder: `validate` exits 1)
    valid: runs.length > 0 && !Issue.hasErrors(results.gold.issues) && !Issue.hasErrors(results.issues) && runs.every((r) => r.status === "valid")
  }
}

export const jsonSchema = () => Schema.toJsonSchemaDocument(ValidationResults)
