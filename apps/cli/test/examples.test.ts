/**
 * Every command example of README.md, docs/*.md and `--help` runs as written (the convention is in
 * support/examples.ts and docs/cli.md), so that an example cannot go stale: through the single-file
 * CLI built from the sources (what `stseval` is for a user: it resolves paths from the folder it
 * runs in and ships itself in `codabench bundle`), in a scratch folder holding a copy of the
 * repository's `examples/` and, when the shared data is there (STSEVAL_SHARED, else ../shared),
 * `data/` (the shared data, also the data store). `/tmp/` in an example is the scratch folder's
 * `tmp/`, so that runs never share files. An example must end with its exit code (0 unless its
 * comment says otherwise) and produce something: output, or what its `--out` names.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import type { Command } from "effect/cli"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import type { ExpectStatic } from "vitest"
import { runProcess } from "@stseval/vitest-config/process"
import { defaultOutfile } from "../scripts/bundle.js"
import { stseval } from "../src/Main.js"
import { builtCli } from "./support/built.js"
import { repoRoot, runCli, shared } from "./support/cli.js"
import { extractHelp, extractMarkdown } from "./support/examples.js"
import type { Example, Extracted } from "./support/examples.js"

const sharedRoot = process.env["STSEVAL_SHARED"] ?? shared
const hasSharedData = fs.existsSync(path.join(sharedRoot, "data"))
const pnpmVersion = (JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")) as { packageManager: string }).packageManager.replace(/^pnpm@/, "")
const read = (file: string) => fs.readFileSync(path.join(repoRoot, file), "utf8")

const documents = ["README.md", ...fs.readdirSync(path.join(repoRoot, "docs")).filter((f) => f.endsWith(".md")).sort().map((f) => `docs/${f}`)]

/** Every command path of `stseval` (`[]` is `stseval` itself) and whether it is a leaf (it runs something). */
const commandPaths = (command: Command.Command.Any, prefix: ReadonlyArray<string> = []): Array<{ path: ReadonlyArray<string>; leaf: boolean }> => [
  { path: prefix, leaf: command.subcommands.length === 0 },
  ...command.subcommands.flatMap((g) => g.commands.flatMap((c) => commandPaths(c, [...prefix, c.name])))
]

/** What was run, skipped or not run, for the summary printed at the end. */
const tally = { run: 0, skipped: [] as Array<string>, notRun: [] as Array<string>, runBy: [] as Array<string> }
const where = (e: Example) => `${e.source.file}:${e.source.line}`

let exe: string
const scratch = scratchDir("examples")

beforeAll(async () => {
  exe = await builtCli()
}, 120_000)

afterAll(() => {
  console.info(
    [
      `[examples] ${tally.run} run, ${tally.skipped.length} skipped${hasSharedData ? "" : ` (they need the shared data, not found at ${sharedRoot}: set STSEVAL_SHARED)`}, ${tally.notRun.length} not run, ${tally.runBy.length} run by other tests`,
      ...tally.skipped.map((s) => `  skipped ${s}`),
      ...tally.notRun.map((s) => `  not run ${s}`),
      ...tally.runBy.map((s) => `  run by ${s}`)
    ].join("\n")
  )
})

/** A fresh working folder: a copy of examples/, and data/ the shared data when it is there. */
const workingFolder = (name: string): string => {
  const dir = path.join(scratch, name.replace(/[^\w.-]+/g, "_"))
  fs.mkdirSync(path.join(dir, "tmp"), { recursive: true })
  fs.cpSync(path.join(repoRoot, "examples"), path.join(dir, "examples"), { recursive: true })
  if (hasSharedData) fs.symlinkSync(path.join(sharedRoot, "data"), path.join(dir, "data"))
  return dir
}

/** Run one example in `dir` and check its exit code and that it produced something. */
const runExample = async (expect: ExpectStatic, e: Extract<Example, { kind: "run" }>, dir: string) => {
  const args = e.args.map((a) => a.replace(/^\/tmp\//, `${dir}/tmp/`))
  const result = await runProcess(process.execPath, [exe, ...args], {
    cwd: dir,
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: path.join(dir, "tmp"),
      TMPDIR: path.join(dir, "tmp"),
      NO_COLOR: "1",
      // the data store: the shared data, or an empty folder (an example that needs it is skipped)
      STSEVAL_DATA: hasSharedData ? path.join(dir, "data") : path.join(dir, "tmp", "no-data")
    }
  })
  const said = `${where(e)}: ${e.text}\nexit ${result.code}\nstdout: ${result.stdout.slice(0, 2000)}\nstderr: ${result.stderr.slice(0, 2000)}`
  expect(result.code, said).toBe(e.exit)
  const outAt = args.findIndex((a) => a === "--out" || a === "-o")
  if (outAt >= 0) {
    const out = path.resolve(dir, args[outAt + 1])
    const made = fs.existsSync(out) && (!fs.statSync(out).isDirectory() || fs.readdirSync(out).length > 0)
    expect(made, `${said}\n${out} was not written`).toBe(e.exit === 0)
  } else {
    expect(result.stdout.trim() + result.stderr.trim(), said).not.toBe("")
  }
  tally.run++
}

/** Run a document's or a help's examples in order, in one working folder. */
const runAll = async (expect: ExpectStatic, name: string, extracted: Extracted) => {
  expect(extracted.problems.map((p) => `${p.source.file}:${p.source.line}: ${p.problem}`)).toEqual([])
  const dir = workingFolder(name)
  for (const e of extracted.examples) {
    if (e.kind === "not-run") tally.notRun.push(`${where(e)} (${e.reason}): ${e.text}`)
    else if (e.kind === "run-by") {
      // that test exists and runs this document
      expect(fs.existsSync(path.join(repoRoot, e.test)), `${where(e)}: no test ${e.test}`).toBe(true)
      expect(read(e.test)).toContain(path.basename(e.source.file))
      tally.runBy.push(`${where(e)} (${e.test}): ${e.text}`)
    } else if (e.needsData && !hasSharedData) tally.skipped.push(`${where(e)}: ${e.text}`)
    else await runExample(expect, e, dir)
  }
}

describe("the convention: what is an example, and what is not", () => {
  const fence = "```"
  const md = (body: string) => extractMarkdown("x.md", body, "12.21.0")
  it("variables, launchers, continuations, comments, exit codes and data", () => {
    const { examples, problems } = md(
      `${fence}sh\nS="npx -y pnpm@12.21.0 stseval"; D=examples/sick2014\n$S tasks --json\npnpm stseval validate --task sick2014 \\\n  $D/submissions   # exit 1: a run is malformed\nstseval score --task sts2017 --gold data/sts2017/gold run/\n${fence}\n`
    )
    expect(problems).toEqual([])
    expect(examples.map((e) => e.kind === "run" ? [e.source.line, e.args.join(" "), e.exit, e.needsData] : e.kind)).toEqual([
      [3, "tasks --json", 0, false],
      [4, "validate --task sick2014 examples/sick2014/submissions", 1, false],
      [6, "score --task sts2017 --gold data/sts2017/gold run/", 0, true]
    ])
  })
  it("markers, synopses, and what the convention refuses", () => {
    const marked = md(`<!-- not run: downloads -->\n${fence}sh\nstseval data fetch sts2017\n${fence}\n<!-- needs: data store -->\n${fence}sh\nstseval baseline overlap --task sick2014 --score\nstseval baseline <name> --task <edition>\n${fence}\n`)
    expect(marked.problems).toEqual([])
    expect(marked.examples.map((e) => e.kind === "not-run" ? e.reason : e.kind === "run" ? e.needsData : e.kind)).toEqual(["downloads", true, "a synopsis (it has a <placeholder>)"])
    const refused = md(`${fence}sh\nls examples\nstseval tasks | head\necho $NOPE\n${fence}\n${fence}\nstseval tasks\n${fence}\n<!-- maybe -->\n${fence}sh\nstseval tasks\n${fence}\n`)
    expect(refused.problems.map((p) => p.source.line)).toEqual([2, 3, 4, 7, 9])
  })
  it("--help: the exit code is said in the description", () => {
    const { examples } = extractHelp("stseval validate", "EXAMPLES\n  # what is scored (exit 1: a run is malformed)\n  stseval validate x\n  # all\n  stseval tasks\n", "12.21.0")
    expect(examples.map((e) => e.kind === "run" ? [e.args.join(" "), e.exit] : e.kind)).toEqual([["validate x", 1], ["tasks", 0]])
  })
})

// Each document and each help in its own folder, several at a time (each example is a process).
describe.concurrent("every command example of the docs runs as written", () => {
  for (const doc of documents) {
    it(doc, async ({ expect }) => {
      await runAll(expect, doc, extractMarkdown(doc, read(doc), pnpmVersion))
    })
  }

  it("README's quick start: two lines, the demo and the tests; the demo's command runs; CI runs the test line as written", async ({ expect }) => {
    const readme = read("README.md")
    const quickStart = /## Quick start\n[\s\S]*?```sh\n([\s\S]*?)```/.exec(readme)?.[1].trim().split("\n") ?? []
    expect(quickStart).toHaveLength(2)
    expect(quickStart[0]).toMatch(/pnpm install && pnpm demo'$/)
    expect(quickStart[1]).toMatch(/pnpm install && pnpm test'$/)
    expect(read(".ci/run")).toContain(`README_TEST="${quickStart[1]}"`)
    const demo = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts["demo"]
    const args = demo.split(" apps/cli/src/bin.ts ")[1].split(" ")
    await runExample(expect, { kind: "run", source: { file: "package.json", line: 0 }, text: `pnpm demo: stseval ${args.join(" ")}`, args, exit: 0, needsData: false }, workingFolder("demo"))
  })

  it("README's command line after install: built once, then the one file run with node (no npx, pnpm or tsx at each command)", ({ expect }) => {
    const readme = read("README.md")
    // the build line names the CLI's build script, which writes the file the examples run
    expect(readme).toContain(`npx -y pnpm@${pnpmVersion} --filter @stseval/cli build`)
    const cli = JSON.parse(read("apps/cli/package.json")) as { scripts: Record<string, string>; bin: Record<string, string> }
    expect(cli.scripts["build"]).toContain("scripts/bundle.ts")
    expect(defaultOutfile).toBe(path.join(repoRoot, "apps/cli/dist/stseval.mjs"))
    expect(cli.bin["stseval"]).toBe("./dist/stseval.mjs")
    // and the examples after it run that file; no command line starts npx and pnpm again (2-4 s each)
    expect(readme).toContain('S="node apps/cli/dist/stseval.mjs"; ')
    expect(readme.split("\n").filter((line) => /^(npx \S+ )*(npx -y )?pnpm(@\S+)? stseval /.test(line))).toEqual([])
  })
})

describe.concurrent("every example of --help runs as written", () => {
  const paths = commandPaths(stseval)

  it("every command has an example: in its own help or its group's", async ({ expect }) => {
    const helps = await Promise.all(paths.map(async (p) => (await runCli([...p.path, "--help"])).stdout))
    const commands = helps.flatMap((h, i) => extractHelp(["stseval", ...paths[i].path].join(" "), h, pnpmVersion).examples.map((e) => e.text))
    const without = paths.filter((p) => p.leaf && !commands.some((c) => `${c} `.startsWith(`${["stseval", ...p.path].join(" ")} `)))
    expect(without.map((p) => p.path.join(" "))).toEqual([])
  })

  for (const p of paths) {
    const name = ["stseval", ...p.path].join(" ")
    it(name, async ({ expect }) => {
      const help = await runCli([...p.path, "--help"])
      expect(help.code).toBe(0)
      const extracted = extractHelp(name, help.stdout, pnpmVersion)
      // `data fetch` downloads from the web: never in a test
      const offline = {
        ...extracted,
        examples: extracted.examples.map((e): Example =>
          e.kind === "run" && e.args[0] === "data" && e.args[1] === "fetch" ? { kind: "not-run", source: e.source, text: e.text, reason: "downloads from the web" } : e
        )
      }
      await runAll(expect, name, offline)
    })
  }
})

describe("what stseval scores is named where a newcomer looks", () => {
  const tasks = ["SICK", "STS 2012-2017", "STS Benchmark", "SemRel", "GLUE", "MTEB"]
  it("README's opening paragraph, the participants' section and the top-level --help name every task", async () => {
    const readme = read("README.md")
    const opening = readme.split("\n## ")[0]
    const participants = /## For participants[\s\S]*?(?=\n## )/.exec(readme)?.[0] ?? ""
    const help = (await runCli(["--help"])).stdout.split("USAGE")[0]
    for (const [name, text] of [["README", opening], ["participants", participants], ["--help", help]] as const) {
      expect(tasks.filter((t) => !text.replace(/\s+/g, " ").includes(t)), name).toEqual([])
    }
    // SemRel's run format and GLUE's file are shown to participants
    expect(participants).toContain("pred_eng.csv")
    expect(participants).toContain("PairID,Pred_Score")
    expect(participants).toContain("index\tprediction")
  })
})
