/**
 * Writes the JSON Schemas of the CLI's own `--json` documents into docs/schemas/
 * (`pnpm --filter @stseval/cli schemas`); a test checks the committed files are current.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import * as ValidationJson from "../src/internal/ValidationJson.js"

/** Effect's `{ dialect, schema, definitions }` document as a standard draft 2020-12 JSON Schema file. */
const standard = (doc: { readonly schema: object; readonly definitions?: object }, title: string): Record<string, unknown> => ({
  $schema: "https://json-schema.org/draft/2020-12/schema",
  title,
  ...doc.schema,
  ...(doc.definitions !== undefined && Object.keys(doc.definitions).length > 0 ? { $defs: doc.definitions } : {})
})

export const documents = (): Record<string, unknown> => ({
  "validation.schema.json": standard(ValidationJson.jsonSchema(), "stseval validate --json (stseval/validation@1)")
})

const out = path.resolve(import.meta.dirname, "../../../docs/schemas")
if (process.argv[1] !== undefined && import.meta.filename === path.resolve(process.argv[1])) {
  for (const [name, doc] of Object.entries(documents())) {
    fs.writeFileSync(path.join(out, name), `${JSON.stringify(doc, null, 2)}\n`)
    console.log(`wrote docs/schemas/${name}`)
  }
}
