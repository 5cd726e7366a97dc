/**
 * `pnpm release:check`: the release, end to end, against a local npm registry; what .ci/run runs on
 * every change. The same commands a maintainer's release runs (`changeset version`, build,
 * `changeset publish`, as .github/workflows/release.yml does on GitHub), then installs as a user
 * would, in fresh projects outside the repository, with npm and with pnpm:
 *
 * 1. a scratch copy of the working tree; `changeset version` there (versions and a CHANGELOG.md per
 *    package from the pending changesets); build; `changeset publish` to verdaccio (Registry.ts);
 * 2. each published tarball, fetched back, holds what a consumer needs and nothing else (Tarball.ts);
 * 3. `@stseval/metrics` alone: nothing else installed with it; `import` (ESM) and `require`
 *    (CommonJS, Node 22 to 26: require(esm)) compute a hand-worked Pearson r; `tsc` type-checks a
 *    consumer under `moduleResolution` `nodenext` (ESM and CommonJS files) and `bundler`;
 * 4. `@stseval/formats` and `@stseval/scoring` beside the consumer's own `effect`: one copy of
 *    `effect` in the tree, and the scoring engine gives the official scorer's figures;
 * 5. `npx @stseval/cli score ...` and `npm i -g @stseval/cli && stseval rank ...` on the shipped SICK
 *    example, `npx -p @stseval/report stseval-report` and `stseval-watcher --once` too;
 * 6. figures for the closing note: each package's packed size, install size with its dependencies
 *    and the time to import its entry (Node 24, a fresh process, no compile cache).
 *
 * Prints one line per check (`ok` or `FAILED` with the reason), the figures, and writes the counts to
 * `--results <file>` (JSON `{ passed, failed, checks, figures }`) for .ci/run's summary. `--keep`
 * leaves the scratch folder (`repo/`, the versioned copy of the repository; `tarballs/`; the test
 * projects in `consumers/` and `global/`) in place and prints its path, to look into a failed check. Exits 1 when
 * any check failed. Figures from the official R scorer on the shipped runs
 * (../shared/reference/sick-posttask-runs.official-R.tsv): The Meaning Factory's pre-deadline run,
 * r 0.826381603887488, accuracy 79.6427846559773%.
 */
import { execFileSync, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import * as Registry from "./Registry.js"
import * as Tarball from "./Tarball.js"

const repoRoot = path.resolve(import.meta.dirname, "../../..")
const examples = path.join(repoRoot, "examples/sick2014")
const OFFICIAL = { pearson: 0.826381603887488, accuracy: 79.6427846559773 }
const NODE_LINES = ["22", "24", "26"] as const

const args = process.argv.slice(2)
const option = (name: string) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}
const resultsFile = option("--results")
const keep = args.includes("--keep")

// ------------------------------------------------------------------------------------------------
// running things

/** The `node` of a supported line: STSEVAL_NODE_<v> (a bin folder, as .ci/run passes), else npx's. */
const nodeBin = (v: string): string => {
  const given = process.env[`STSEVAL_NODE_${v}`]
  if (given !== undefined && fs.existsSync(path.join(given, "node"))) return path.join(given, "node")
  if (process.version.startsWith(`v${v}.`)) return process.execPath
  const dir = execFileSync("npx", ["-y", "-p", `node@${v}`, "-c", 'dirname "$(command -v node)"'], { encoding: "utf8" }).trim().split("\n").pop() ?? ""
  return path.join(dir, "node")
}

interface Ran {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/**
 * This process's environment without the npm settings a parent npm or npx passed down
 * (`npm_config_userconfig`, `npm_config_registry`, `npm_config_prefix`...: `npx pnpm` sets them,
 * and they would win over the check's own npmrc, sending a publish to the npm registry). Only the
 * machine's certificate file and Node headers are kept.
 */
const inherited = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_(config|lifecycle|package)_/i.test(k) || /^npm_config_(cafile|nodedir)$/i.test(k)))

let env: NodeJS.ProcessEnv = inherited()

/** Run a command (no shell), its output kept; throws with the output when it fails and `check`. */
const run = (command: string, argv: ReadonlyArray<string>, options: { readonly cwd: string; readonly env?: NodeJS.ProcessEnv; readonly check?: boolean }): Ran => {
  const r = spawnSync(command, argv, { cwd: options.cwd, env: options.env ?? env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 })
  const ran = { code: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" }
  if ((options.check ?? true) && r.status !== 0) {
    throw new Error(`${command} ${argv.join(" ")} (in ${options.cwd}) exited with ${r.status ?? r.signal}\n${ran.stdout.slice(-6000)}\n${ran.stderr.slice(-6000)}`)
  }
  return ran
}

// ------------------------------------------------------------------------------------------------
// checks

interface Check {
  readonly name: string
  readonly ok: boolean
  readonly detail: string
}
const checks: Array<Check> = []

const check = async (name: string, body: () => Promise<string | void> | string | void): Promise<boolean> => {
  const t0 = performance.now()
  try {
    const detail = (await body()) ?? ""
    checks.push({ name, ok: true, detail })
    console.log(`release check: ${name}: ok (${((performance.now() - t0) / 1000).toFixed(1)} s)${detail === "" ? "" : `: ${detail}`}`)
    return true
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e)
    checks.push({ name, ok: false, detail })
    console.log(`release check: ${name}: FAILED (${((performance.now() - t0) / 1000).toFixed(1)} s)\n  ${detail.split("\n").join("\n  ")}`)
    return false
  }
}

const assert = (condition: boolean, message: string): void => {
  if (!condition) throw new Error(message)
}
const near = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol

/** A fresh consumer project outside the repository, installing from the local registry. */
const project = (name: string, manifest: Record<string, unknown> = {}): string => {
  const dir = path.join(scratch, "consumers", name)
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `consumer-${name}`, version: "1.0.0", private: true, ...manifest }, null, 2))
  return dir
}

/**
 * npx with a cache of its own: npx reuses what it installed for the same spec before, which would be
 * an earlier check's tarball of the same version.
 */
const npx = (dir: string, argv: ReadonlyArray<string>, check = true) =>
  run("npx", ["-y", ...argv], { cwd: dir, env: { ...env, npm_config_cache: path.join(scratch, "npx-cache") }, check })

const npm = (dir: string, argv: ReadonlyArray<string>) => run("npm", [...argv, "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir })
const pnpm = (dir: string, argv: ReadonlyArray<string>) => run(PNPM[0], [...PNPM.slice(1), ...argv], { cwd: dir })
/** pnpm 12.21.0 (npx's copy, found once with the npm registry itself, before the check's settings). */
const PNPM = [
  execFileSync("npx", ["-y", "-p", "pnpm@12.21.0", "-c", "command -v pnpm"], { encoding: "utf8" }).trim().split("\n").pop() ?? "pnpm"
]

/** The packages under node_modules (scoped ones as `@scope/name`), not counting `.bin` and dotfiles. */
const installed = (dir: string): Array<string> => {
  const nm = path.join(dir, "node_modules")
  if (!fs.existsSync(nm)) return []
  return fs.readdirSync(nm).filter((n) => !n.startsWith(".")).flatMap((n) => (n.startsWith("@") ? fs.readdirSync(path.join(nm, n)).map((m) => `${n}/${m}`) : [n]))
}

const du = (dir: string): number => {
  let total = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name)
    if (entry.isDirectory()) total += du(p)
    else if (entry.isFile()) total += fs.statSync(p).size
  }
  return total
}

const kB = (n: number) => `${(n / 1024).toFixed(1)} kB`

// ------------------------------------------------------------------------------------------------
// the release

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-release-"))
const node24 = nodeBin("24")
let registry: Registry.Registry | undefined

interface Published {
  readonly name: string
  readonly dir: string
  readonly version: string
  readonly bin: Readonly<Record<string, string>>
}
let published: Array<Published> = []
const tarballs = new Map<string, string>()

const main = async () => {
  console.log(`release check in ${scratch}`)
  const ready = await check("local registry (verdaccio)", async () => {
    registry = await Registry.start(scratch, node24)
    env = {
      ...inherited(),
      // every npm and pnpm call of the check takes @stseval/* from the local registry, and
      // publishes there; everything else comes from the npm registry as usual
      NPM_CONFIG_USERCONFIG: registry.npmrc,
      // provenance is made on GitHub Actions (release.yml); a local publish cannot sign
      npm_config_provenance: "false",
      npm_config_update_notifier: "false",
      // the repository's export condition must not reach a consumer
      NODE_OPTIONS: "",
      CI: "true"
    }
    return `verdaccio ${Registry.VERDACCIO} on ${registry.url}`
  })
  if (!ready) return

  const repo = path.join(scratch, "repo")
  const released = await check("changeset version, build, changeset publish", () => {
    // the working tree as it is (committed or not), without what git ignores
    const files = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: repoRoot }).stdout.split("\0").filter((f) => f !== "")
    for (const f of files) {
      const from = path.join(repoRoot, f)
      if (!fs.existsSync(from) || fs.statSync(from).isDirectory()) continue
      fs.mkdirSync(path.dirname(path.join(repo, f)), { recursive: true })
      fs.cpSync(from, path.join(repo, f), { verbatimSymlinks: true })
    }
    run("git", ["init", "-q"], { cwd: repo })
    run("git", ["add", "-A"], { cwd: repo })
    run("git", ["-c", "user.name=release", "-c", "user.email=release@localhost", "commit", "-qm", "snapshot"], { cwd: repo })
    const pending = fs.readdirSync(path.join(repo, ".changeset")).filter((f) => f.endsWith(".md") && f !== "README.md")
    pnpm(repo, ["install", "--frozen-lockfile", "--prefer-offline"])
    // the root's `version-packages`: `changeset version` (what release.yml's version pull request runs)
    pnpm(repo, ["version-packages"])
    const left = fs.readdirSync(path.join(repo, ".changeset")).filter((f) => f.endsWith(".md") && f !== "README.md")
    assert(left.length === 0, `changeset version left ${left.join(", ")}`)
    published = ["packages", "apps"].flatMap((group) =>
      fs.readdirSync(path.join(repo, group)).flatMap((d) => {
        const dir = path.join(repo, group, d)
        const file = path.join(dir, "package.json")
        if (!fs.existsSync(file)) return []
        const p = JSON.parse(fs.readFileSync(file, "utf8")) as { name: string; version: string; private?: boolean; bin?: Record<string, string> }
        return p.private === true ? [] : [{ name: p.name, dir, version: p.version, bin: p.bin ?? {} }]
      })
    )
    // the scoring engine signs with its package.json's version (internal/version.ts reads it): the
    // installed package's signature is checked against its version after the install below
    const scoring = published.find((p) => p.name === "@stseval/scoring")
    assert(scoring !== undefined && !/export const VERSION = "/.test(fs.readFileSync(path.join(repo, "packages/scoring/src/Signature.ts"), "utf8")), "the scoring engine has a VERSION of its own again")
    for (const p of published) {
      const before = JSON.parse(fs.readFileSync(path.join(repoRoot, path.relative(repo, p.dir), "package.json"), "utf8")) as { version: string }
      const changelog = path.join(p.dir, "CHANGELOG.md")
      assert(fs.existsSync(changelog), `${p.name}: no CHANGELOG.md after changeset version`)
      assert(fs.readFileSync(changelog, "utf8").startsWith(`# ${p.name}\n\n## ${p.version}\n`), `${p.name}: CHANGELOG.md does not open with ${p.version}`)
      assert(p.version !== before.version, `${p.name}: still ${p.version}: no pending changeset names it`)
    }
    // never a publish anywhere but the local registry
    const target = run("npm", ["config", "get", "@stseval:registry"], { cwd: repo }).stdout.trim()
    assert(target === registry?.url, `@stseval:registry is ${target}, not the local registry ${registry?.url}: not publishing`)
    // the root's `release`: build, then `changeset publish` (what release.yml runs on merge)
    const out = pnpm(repo, ["release"])
    const missing = published.filter((p) => run("npm", ["view", `${p.name}@${p.version}`, "version"], { cwd: scratch }).stdout.trim() !== p.version)
    assert(missing.length === 0, `not on the registry after publish: ${missing.map((p) => `${p.name}@${p.version}`).join(", ")}\n${out.stdout}\n${out.stderr}`)
    return `${pending.length} changesets; published ${published.map((p) => `${p.name}@${p.version}`).join(", ")}`
  })
  if (!released) return

  const version = (name: string) => published.find((p) => p.name === name)?.version ?? "missing"

  // 2. each tarball, as the registry serves it
  const packDir = path.join(scratch, "tarballs")
  fs.mkdirSync(packDir)
  for (const p of published) {
    await check(`tarball ${p.name}`, () => {
      const packed = JSON.parse(run("npm", ["pack", `${p.name}@${p.version}`, "--json", "--pack-destination", packDir], { cwd: scratch }).stdout) as ReadonlyArray<{ readonly filename: string }>
      const tgz = path.join(packDir, packed[0].filename)
      tarballs.set(p.name, tgz)
      const unpacked = path.join(packDir, p.name.replace("/", "+"))
      fs.mkdirSync(unpacked, { recursive: true })
      run("tar", ["-xzf", tgz, "-C", unpacked], { cwd: scratch })
      const files = new Map<string, string>()
      const walk = (dir: string) => {
        for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
          const full = path.join(dir, e.name)
          if (e.isDirectory()) walk(full)
          else files.set(path.relative(unpacked, full).split(path.sep).join("/"), fs.readFileSync(full, "utf8"))
        }
      }
      walk(unpacked)
      const problems = Tarball.problems(files)
      assert(problems.length === 0, problems.join("\n"))
      for (const bin of Object.values(p.bin)) assert(files.get(path.posix.join("package", bin))?.startsWith("#!/usr/bin/env node") === true, `${bin} has no #! line`)
      return `${files.size} files, ${kB(fs.statSync(tgz).size)}`
    })
  }

  // 3. @stseval/metrics alone
  const esm = `import { MetricValue, Pearson } from "@stseval/metrics"
const r = MetricValue.getOrNaN(Pearson.pearson(new Float64Array([1, 3, 4, 2]), new Float64Array([1, 2, 4, 3])))
if (Math.abs(r - 0.8) > 1e-15) throw new Error("r = " + r)
console.log("r =", r)
`
  const cjs = esm.replace('import { MetricValue, Pearson } from "@stseval/metrics"', 'const { MetricValue, Pearson } = require("@stseval/metrics")')
  for (const pm of ["npm", "pnpm"] as const) {
    const dir = project(`metrics-${pm}`)
    await check(`@stseval/metrics alone (${pm}): nothing else installed`, () => {
      if (pm === "npm") npm(dir, ["install", `@stseval/metrics@${version("@stseval/metrics")}`])
      else pnpm(dir, ["add", `@stseval/metrics@${version("@stseval/metrics")}`])
      assert(JSON.stringify(installed(dir)) === '["@stseval/metrics"]', `node_modules holds ${installed(dir).join(", ")}`)
      if (pm === "pnpm") {
        const store = fs.readdirSync(path.join(dir, "node_modules/.pnpm")).filter((n) => !n.startsWith(".") && n !== "node_modules" && n !== "lock.yaml")
        assert(store.length === 1 && store[0].startsWith("@stseval+metrics@"), `node_modules/.pnpm holds ${store.join(", ")}`)
      }
    })
    fs.writeFileSync(path.join(dir, "esm.mjs"), esm)
    fs.writeFileSync(path.join(dir, "cjs.cjs"), cjs)
    for (const v of NODE_LINES) {
      const node = nodeBin(v)
      await check(`@stseval/metrics (${pm}): import and require on Node ${v}`, () => {
        for (const file of ["esm.mjs", "cjs.cjs"]) {
          const r = run(node, [file], { cwd: dir, check: false })
          assert(r.code === 0 && r.stdout.trim() === "r = 0.8", `${file}: exit ${r.code}\n${r.stdout}${r.stderr}`)
        }
        return run(node, ["--version"], { cwd: dir }).stdout.trim()
      })
    }
  }
  await check("@stseval/metrics: tsc type-checks a consumer (nodenext ESM and CommonJS, bundler)", () => {
    const dir = path.join(scratch, "consumers", "metrics-npm")
    const tsc = path.join(repoRoot, "node_modules/typescript/bin/tsc")
    const typed = `import { MetricValue, Pearson } from "@stseval/metrics"
const value: MetricValue.MetricValue = Pearson.pearson(new Float64Array([1, 3, 4, 2]), new Float64Array([1, 2, 4, 3]))
export const r: number = MetricValue.getOrNaN(value)
// @ts-expect-error the gold is a Float64Array, not an array of numbers
Pearson.pearson([1, 2], new Float64Array([1, 2]))
`
    fs.writeFileSync(path.join(dir, "esm.mts"), typed)
    fs.writeFileSync(path.join(dir, "cjs.cts"), typed)
    fs.writeFileSync(path.join(dir, "bundler.ts"), typed)
    const base = { strict: true, noEmit: true, target: "es2022", lib: ["es2023"], types: [], skipLibCheck: false }
    fs.writeFileSync(path.join(dir, "tsconfig.nodenext.json"), JSON.stringify({ compilerOptions: { ...base, module: "nodenext", moduleResolution: "nodenext" }, files: ["esm.mts", "cjs.cts"] }))
    fs.writeFileSync(path.join(dir, "tsconfig.bundler.json"), JSON.stringify({ compilerOptions: { ...base, module: "preserve", moduleResolution: "bundler" }, files: ["bundler.ts"] }))
    for (const config of ["tsconfig.nodenext.json", "tsconfig.bundler.json"]) {
      const r = run(node24, [tsc, "-p", config], { cwd: dir, check: false })
      assert(r.code === 0, `${config}:\n${r.stdout}${r.stderr}`)
    }
    return `TypeScript ${run(node24, [tsc, "--version"], { cwd: dir }).stdout.trim()}`
  })

  // 4. formats and scoring beside the consumer's own effect
  const engine = `import * as NodeServices from "@effect/platform-node/NodeServices"
import { Registry } from "@stseval/formats"
import { Engine, ScoredRun } from "@stseval/scoring"
import { Effect } from "effect"
const edition = await Effect.runPromise(Registry.resolve("sick2014").pipe(Effect.provide(NodeServices.layer)))
const results = await Effect.runPromise(
  Engine.score({ task: edition, gold: ${JSON.stringify(path.join(examples, "SICK_test_annotated.txt"))}, runs: [${JSON.stringify(path.join(examples, "submissions/MeaningFactory_run1primary.txt"))}] }).pipe(Effect.provide(NodeServices.layer))
)
const run = results.runs[0]
const value = (m) => (m?._tag === "Defined" ? m.value : null)
console.log(JSON.stringify({ pearson: value(ScoredRun.figure(run, "relatedness", "pearson")), accuracy: value(ScoredRun.figure(run, "entailment", "accuracy")) }))
`
  for (const pm of ["npm", "pnpm"] as const) {
    await check(`@stseval/formats + @stseval/scoring beside the consumer's effect (${pm}): one effect`, () => {
      const dir = project(`engine-${pm}`, { type: "module" })
      const own = ["effect@4.1.0", "@effect/platform-node@4.1.0"]
      const ours = [`@stseval/formats@${version("@stseval/formats")}`, `@stseval/scoring@${version("@stseval/scoring")}`]
      if (pm === "npm") {
        npm(dir, ["install", ...own])
        npm(dir, ["install", ...ours])
        const copies = run("npm", ["ls", "effect", "--all", "--parseable"], { cwd: dir }).stdout.trim().split("\n").filter((l) => l !== "")
        assert(copies.length === 1 && copies[0] === path.join(dir, "node_modules/effect"), `npm ls effect: ${copies.join(", ")}`)
      } else {
        pnpm(dir, ["add", ...own])
        pnpm(dir, ["add", ...ours])
        const copies = fs.readdirSync(path.join(dir, "node_modules/.pnpm")).filter((n) => n.startsWith("effect@"))
        assert(copies.length === 1, `node_modules/.pnpm: ${copies.join(", ")}`)
      }
      fs.writeFileSync(path.join(dir, "score.mjs"), engine)
      const figures = JSON.parse(run(node24, ["score.mjs"], { cwd: dir }).stdout) as { pearson: number; accuracy: number }
      assert(near(figures.pearson, OFFICIAL.pearson, 1e-9) && near(figures.accuracy, OFFICIAL.accuracy, 1e-9), `figures ${JSON.stringify(figures)}, the official scorer's ${JSON.stringify(OFFICIAL)}`)
      return `r ${figures.pearson.toFixed(6)}, accuracy ${figures.accuracy.toFixed(4)}%`
    })
  }

  // 5. the executables
  const gold = path.join(examples, "SICK_test_annotated.txt")
  const submissions = path.join(examples, "submissions")
  await check("npx @stseval/cli score", () => {
    const dir = project("npx")
    fs.rmSync(path.join(dir, "package.json"))
    const r = npx(dir, [`@stseval/cli@${version("@stseval/cli")}`, "score", "--task", "sick2014", "--gold", gold, path.join(submissions, "MeaningFactory_run1primary.txt"), "--json"])
    // stseval/scored-results@2 (docs/schemas/scored-results.schema.json): figures by metric name per dataset
    type Figures = { readonly figures?: Readonly<Record<string, number | null>> }
    const json = JSON.parse(r.stdout) as { format: string; runs: ReadonlyArray<{ datasets: Readonly<Record<string, Figures>> }>; signature: { engine: string } }
    assert(json.format === "stseval/scored-results@2", `format ${json.format}`)
    const datasets = json.runs[0]?.datasets ?? {}
    const pearson = datasets.relatedness?.figures?.pearson ?? Number.NaN
    const accuracy = datasets.entailment?.figures?.accuracy ?? Number.NaN
    assert(near(pearson, OFFICIAL.pearson, 1e-9) && near(accuracy, OFFICIAL.accuracy, 1e-9), `figures ${JSON.stringify({ pearson, accuracy })}, the official scorer's ${JSON.stringify(OFFICIAL)}`)
    assert(json.signature.engine === `stseval-scoring@${version("@stseval/scoring")}`, `signature names ${json.signature.engine}`)
    return `r ${pearson.toFixed(6)}, ${json.signature.engine}`
  })
  await check("npm i -g @stseval/cli && stseval rank", () => {
    const prefix = path.join(scratch, "global")
    run("npm", ["install", "-g", `@stseval/cli@${version("@stseval/cli")}`, "--no-audit", "--no-fund", "--loglevel=error"], { cwd: scratch, env: { ...env, npm_config_prefix: prefix } })
    const lib = path.join(prefix, "lib/node_modules")
    assert(JSON.stringify(installed(path.dirname(lib))) === '["@stseval/cli"]', `the global install holds ${installed(path.dirname(lib)).join(", ")}`)
    assert(!fs.existsSync(path.join(lib, "@stseval/cli/node_modules")), "@stseval/cli brought dependencies")
    const r = run(path.join(prefix, "bin/stseval"), ["rank", "--task", "sick2014", "--gold", gold, submissions, "--json"], { cwd: scratch, env: { ...env, PATH: `${path.dirname(node24)}:${env.PATH ?? ""}` } })
    const rankings = (JSON.parse(r.stdout) as { rankings: { rankings: ReadonlyArray<{ ranking: string; entries: ReadonlyArray<{ rank: number; id: string; value: number }> }> } }).rankings.rankings
    const relatedness = rankings.find((x) => x.ranking === "relatedness")?.entries ?? []
    assert(relatedness[0]?.id === "MeaningFactory/run1" && relatedness[0].rank === 1 && near(relatedness[0].value, OFFICIAL.pearson, 1e-9), `relatedness ranking ${JSON.stringify(relatedness)}`)
    const version_ = run(path.join(prefix, "bin/stseval"), ["--version"], { cwd: scratch, env: { ...env, PATH: `${path.dirname(node24)}:${env.PATH ?? ""}` } }).stdout.trim()
    assert(version_ === `stseval v${version("@stseval/cli")}`, `--version: ${version_}`)
    return `${relatedness.map((e) => `${e.rank}. ${e.id}`).join(", ")}; ${version_}`
  })
  await check("npx -p @stseval/report stseval-report", () => {
    const dir = project("report")
    fs.writeFileSync(path.join(dir, "report.yaml"), `task: sick2014\ngold: ${gold}\nsubmissions: ${submissions}\nout: tables\n`)
    // exit 1: the shipped example holds two runs that cannot be scored, and the report says so
    const r = npx(dir, ["-p", `@stseval/report@${version("@stseval/report")}`, "stseval-report", "report.yaml"], false)
    assert(r.code === 1 && r.stderr.includes("not scored: Insight/run2"), `exit ${r.code}\n${r.stdout}${r.stderr}`)
    const files = fs.readdirSync(path.join(dir, "tables")).sort()
    // the tables, and the edition's citation as BibTeX beside the LaTeX (references.bib)
    assert(files.join(" ") === "index.html references.bib sick2014-table6.html sick2014-table6.md sick2014-table6.tex sick2014-table7.html sick2014-table7.md sick2014-table7.tex", files.join(" "))
    assert(/@inproceedings\{marelli/i.test(fs.readFileSync(path.join(dir, "tables/references.bib"), "utf8")), "references.bib lacks SICK's paper")
    assert(/MeaningFactory\/run1 +\| \*\*0\.826\*\* •/.test(fs.readFileSync(path.join(dir, "tables/sick2014-table7.md"), "utf8")), "Table 7 lacks MeaningFactory's 0.826")
    return files.join(", ")
  })
  await check("npx -p @stseval/watcher stseval-watcher --once", () => {
    const dir = project("watcher")
    fs.writeFileSync(path.join(dir, "watcher.yaml"), `task: sick2014\ngold: ${gold}\nsubmissions: ${submissions}\nout: board\n`)
    const r = npx(dir, ["-p", `@stseval/watcher@${version("@stseval/watcher")}`, "stseval-watcher", "watcher.yaml", "--once"])
    assert(r.stdout.includes("5 run(s): 3 scored, 2 failed"), r.stdout)
    const status = JSON.parse(fs.readFileSync(path.join(dir, "board/status.json"), "utf8")) as { phase: string }
    assert(status.phase === "stopped", `status.json phase ${status.phase}`)
    return r.stdout.trim().split("\n").pop() ?? ""
  })

  // 6. figures
  await check("figures: packed size, install size, import time (Node 24)", () => {
    const rows: Array<string> = []
    for (const p of published) {
      const dir = project(`size-${p.name.replace("/", "+")}`, { type: "module" })
      npm(dir, ["install", `${p.name}@${p.version}`])
      const packed = fs.statSync(tarballs.get(p.name) ?? "").size
      const unpacked = du(path.join(dir, "node_modules", p.name))
      const install = du(path.join(dir, "node_modules"))
      // npm hoists every dependency to the top: the other packages are the rest of node_modules
      const deps = installed(dir).length - 1
      // the entry, imported in a fresh process each time (no compile cache: a first start)
      const times: Array<number> = []
      const bin = Object.values(p.bin)[0]
      for (let i = 0; i < 5; i++) {
        if (bin === undefined) {
          const r = run(node24, ["--input-type=module", "-e", `const t = performance.now(); await import(${JSON.stringify(p.name)}); console.log(performance.now() - t)`], {
            cwd: dir,
            env: { ...env, NODE_DISABLE_COMPILE_CACHE: "1" }
          })
          times.push(Number(r.stdout.trim()))
        } else {
          // an executable: the whole start, `--version`, code cache off
          const t = performance.now()
          run(node24, [path.join(dir, "node_modules", p.name, bin), "--version"], { cwd: dir, env: { ...env, NODE_DISABLE_COMPILE_CACHE: "1" } })
          times.push(performance.now() - t)
        }
      }
      times.sort((a, b) => a - b)
      const median = times[2]
      figures.push({ name: p.name, version: p.version, packed, unpacked, install, dependencies: deps, importMs: median, entry: bin === undefined ? "import" : `${Object.keys(p.bin)[0]} --version` })
      rows.push(`${p.name.padEnd(22)} packed ${kB(packed).padStart(9)}  unpacked ${kB(unpacked).padStart(9)}  installed with dependencies ${kB(install).padStart(10)} (${deps} other packages)  ${bin === undefined ? "import" : "start (--version)"} ${median.toFixed(0)} ms`)
    }
    return `\n  ${rows.join("\n  ")}`
  })
}

interface Figure {
  readonly name: string
  readonly version: string
  readonly packed: number
  readonly unpacked: number
  readonly install: number
  readonly dependencies: number
  readonly importMs: number
  readonly entry: string
}
const figures: Array<Figure> = []

const t0 = performance.now()
try {
  await main()
} catch (e) {
  checks.push({ name: "release check", ok: false, detail: e instanceof Error ? e.stack ?? e.message : String(e) })
  console.log(`release check: FAILED: ${e instanceof Error ? e.stack : String(e)}`)
} finally {
  registry?.stop()
}
const passed = checks.filter((c) => c.ok).length
const failed = checks.length - passed
console.log(`release check: ${passed} of ${checks.length} checks passed in ${((performance.now() - t0) / 1000).toFixed(0)} s`)
if (resultsFile !== undefined) fs.writeFileSync(resultsFile, JSON.stringify({ passed, failed, checks, figures }, null, 2))
if (keep) console.log(`release check: --keep: the scratch folder is left at ${scratch}`)
else fs.rmSync(scratch, { recursive: true, force: true })
process.exit(failed === 0 && passed > 0 ? 0 : 1)
