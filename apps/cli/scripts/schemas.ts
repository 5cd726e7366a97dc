/**
 * Writes every JSON Schema in docs/schemas/ from the Effect Schemas the code builds its documents
 * from (`pnpm --filter @stseval/cli schemas`); test/schemas.test.ts checks the committed files are
 * current. Nothing here describes a document by hand: each file is one Schema's JSON Schema.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { Schema } from "effect"
import { Registry } from "@stseval/formats"
import { Leaderboard, Status } from "@stseval/leaderboard"
import { ResultSchema } from "@stseval/scoring"
import { Json as TablesJson } from "@stseval/tables"
import * as CompareJson from "../src/internal/CompareJson.js"
import * as ValidationJson from "../src/internal/ValidationJson.js"

/** Effect's `{ dialect, schema, definitions }` document as a standard draft 2020-12 JSON Schema file. */
const standard = (doc: { readonly schema: object; readonly definitions?: object }, title: string): Record<string, unknown> => ({
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title,
  ...doc.schema,
  ...(doc.definitions !== undefined && Object.keys(doc.definitions).length > 0 ? { $defs: doc.definitions } : {})
})

/** A closed schema (`additionalProperties: false` on every object): the documents' fields are fixed. */
const closed = (schema: Schema.Top, title: string, description: string): Record<string, unknown> => {
  const { $schema, title: t, ...rest } = standard(Schema.toJsonSchemaDocument(schema, { onExcessProperty: "error" }), title)
  return { $schema, title: t, description, ...rest }
}

export const documents = (): Record<string, unknown> => ({
  "scored-results.schema.json": ResultSchema.jsonSchema(),
  "task-edition.schema.json": Registry.jsonSchema(),
  "validation.schema.json": standard(ValidationJson.jsonSchema(), "stseval validate --json (stseval/validation@1)"),
  "compare.schema.json": closed(
    CompareJson.CompareResults,
    "stseval compare --json",
    "Run A against run B: per dataset (track), the edition's aggregate, SICK entailment. See docs/cli.md and docs/significance.md."
  ),
  "significance.schema.json": closed(
    CompareJson.SignificanceResults,
    "stseval significance --json",
    "The runs of a submissions folder ranked, with their comparisons against the best, a given run, or each other. See docs/cli.md and docs/significance.md."
  ),
  "report.schema.json": closed(
    TablesJson.ReportJson,
    "stseval report --format json (stseval/report@2)",
    "The results tables of a submissions folder, as laid out for the task papers, with scatter data and p-value matrices. See docs/report.md."
  ),
  "leaderboard.schema.json": closed(
    Leaderboard.Leaderboard,
    "stseval watch: leaderboard.json and leaderboard.public.json (stseval/leaderboard@1)",
    "The live leaderboard the watcher keeps in its output folder. See docs/watch.md."
  ),
  "watch-status.schema.json": closed(Status.Status, "stseval watch: status.json (stseval/watch-status@1)", "Per run, the watcher's scoring state. See docs/watch.md.")
})

const out = path.resolve(import.meta.dirname, "../../../docs/schemas")
if (process.argv[1] !== undefined && import.meta.filename === path.resolve(process.argv[1])) {
  for (const [name, doc] of Object.entries(documents())) {
    fs.writeFileSync(path.join(out, name), `${JSON.stringify(doc, null, 2)}\n`)
    console.log(`wrote docs/schemas/${name}`)
  }
}
