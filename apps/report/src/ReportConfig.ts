/**
 * The report generator's config file: where the inputs are and where the folder goes (`task`,
 * `submissions`, `gold`, `out`, ...), beside every option of a report config of `@stseval/tables`
 * (`layout`, `columns`, `decimals`, `test`, `alpha`, `ci`, `latex`, ...; docs/report.md), in one
 * JSON or YAML file. Paths are relative to the config file's folder, so a config and its data can
 * move together.
 *
 * ```yaml
 * task: sick2014
 * gold: ../examples/sick2014/SICK_test_annotated.txt
 * submissions: ../examples/sick2014/submissions
 * out: tables            # default: report/ beside the config
 * formats: [latex, md, html]
 * decimals: 3
 * latex: { standalone: true }
 * ```
 */
import * as nodePath from "node:path"
import * as AppConfig from "@stseval/app/config"
import { Config as TablesConfig, Folder } from "@stseval/tables"
import { Schema } from "effect"

/** The keys of the inputs and the output; every other key is a `@stseval/tables` report option. */
export const InputsSchema = Schema.Struct({
  task: Schema.String.annotate({ description: "a built-in edition id (sick2014) or an edition file" }),
  submissions: Schema.String.annotate({ description: "the submissions folder" }),
  gold: Schema.optionalKey(Schema.String),
  dataRoot: Schema.optionalKey(Schema.String),
  dev: Schema.optionalKey(Schema.String),
  devGold: Schema.optionalKey(Schema.String),
  out: Schema.optionalKey(Schema.String),
  formats: Schema.optionalKey(Schema.Array(Schema.Literals(["md", "latex", "html"])))
})

const INPUT_KEYS = new Set(Object.keys(InputsSchema.fields))
const REPORT_KEYS = new Set(Object.keys(TablesConfig.ConfigSchema.fields))

/** A config file, decoded, its paths absolute. */
export interface ReportConfig {
  readonly file: string
  readonly task: string
  readonly submissions: string
  readonly gold: string | undefined
  readonly dataRoot: string | undefined
  readonly dev: string | undefined
  readonly devGold: string | undefined
  readonly out: string
  readonly formats: ReadonlyArray<Folder.FileFormat>
  /** the `@stseval/tables` options */
  readonly report: TablesConfig.Config
}

export type Parsed = { readonly _tag: "Ok"; readonly config: ReportConfig } | { readonly _tag: "Error"; readonly errors: ReadonlyArray<string> }

/**
 * Read a config file's text (JSON when the name ends in `.json`, else YAML): every error names the
 * file and the key, what was expected and what was found.
 */
export const parse = (text: string, file: string): Parsed => {
  const read = AppConfig.read(text, file, "task and submissions")
  if (read._tag === "Error") return read
  const value = read.value
  const inputs: Record<string, unknown> = {}
  const rest: Record<string, unknown> = {}
  const errors: Array<string> = []
  for (const [k, v] of Object.entries(value)) {
    if (INPUT_KEYS.has(k)) inputs[k] = v
    else if (REPORT_KEYS.has(k)) rest[k] = v
    else errors.push(`${file}: ${k}: expected one of the keys ${[...INPUT_KEYS, ...REPORT_KEYS].join(", ")}`)
  }
  const decoded = AppConfig.decode(InputsSchema, inputs, file)
  if (decoded._tag === "Error") errors.push(...decoded.errors)
  const report = TablesConfig.decode(rest, file)
  if (report._tag === "Error") errors.push(...report.errors)
  if (decoded._tag === "Error" || report._tag === "Error") return { _tag: "Error", errors }
  const i = decoded.value
  const dir = nodePath.dirname(nodePath.resolve(file))
  const at = (p: string | undefined) => (p === undefined ? undefined : nodePath.resolve(dir, p))
  return {
    _tag: "Ok",
    config: {
      file: nodePath.resolve(file),
      task: AppConfig.isEditionPath(i.task) ? nodePath.resolve(dir, i.task) : i.task,
      submissions: nodePath.resolve(dir, i.submissions),
      gold: at(i.gold),
      dataRoot: at(i.dataRoot),
      dev: at(i.dev),
      devGold: at(i.devGold),
      out: nodePath.resolve(dir, i.out ?? "report"),
      formats: i.formats !== undefined && i.formats.length > 0 ? [...new Set(i.formats)] : Folder.fileFormats,
      report: report.config
    }
  }
}
