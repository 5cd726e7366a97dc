/**
 * `pnpm bench`: runs each package's `bench/*.bench.ts` (a module exporting `run()` that returns rows
 * of figures), prints them and writes `.bench/results.json`. Figures belong in issue notes, never in
 * test assertions. `pnpm bench <filter>` runs only the bench files whose path contains <filter>;
 * `--fast` asks each bench for a smoke run (`run({ fast: true })`: smaller jobs, one launch each),
 * for a quick check that every bench still runs.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { pathToFileURL } from "node:url"

type Row = Record<string, unknown>

const root = path.resolve(import.meta.dirname, "../../..")
const args = process.argv.slice(2)
const fast = args.includes("--fast")
const filter = args.find((a) => !a.startsWith("--"))

const benchFiles = ["packages", "apps"]
  .flatMap((group) =>
    fs.existsSync(path.join(root, group))
      ? fs.readdirSync(path.join(root, group)).map((name) => path.join(root, group, name, "bench"))
      : []
  )
  .filter((dir) => fs.existsSync(dir))
  .flatMap((dir) => fs.readdirSync(dir).filter((f) => f.endsWith(".bench.ts")).map((f) => path.join(dir, f)))
  .filter((file) => filter === undefined || file.includes(filter))

const format = (value: unknown): string =>
  typeof value === "number" ? (Number.isInteger(value) ? String(value) : value.toPrecision(4)) : String(value)

const results: Array<{ file: string; rows: ReadonlyArray<Row>; error?: string }> = []
for (const file of benchFiles) {
  const rel = path.relative(root, file)
  process.stdout.write(`\n== ${rel}\n`)
  try {
    const mod = (await import(pathToFileURL(file).href)) as { run?: (options: { readonly fast: boolean }) => Promise<ReadonlyArray<Row>> | ReadonlyArray<Row> }
    if (typeof mod.run !== "function") throw new Error("exports no run()")
    const rows = await mod.run({ fast })
    for (const row of rows) {
      process.stdout.write(`   ${Object.entries(row).map(([k, v]) => `${k}=${format(v)}`).join("  ")}\n`)
    }
    results.push({ file: rel, rows })
  } catch (error) {
    const message = error instanceof Error ? error.stack ?? error.message : String(error)
    process.stdout.write(`   FAILED: ${message}\n`)
    results.push({ file: rel, rows: [], error: message })
  }
}

const machine = { node: process.version, cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memoryGiB: Math.round(os.totalmem() / 2 ** 30) }
fs.mkdirSync(path.join(root, ".bench"), { recursive: true })
fs.writeFileSync(path.join(root, ".bench", "results.json"), `${JSON.stringify({ date: new Date().toISOString(), machine, fast, results }, null, 2)}\n`)
process.stdout.write(`\nwrote .bench/results.json (${results.length} bench files)\n`)
process.exitCode = results.some((r) => r.error !== undefined) ? 1 : 0
