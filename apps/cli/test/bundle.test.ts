/**
 * The bundled executable (scripts/bundle.ts): built once with esbuild (support/built.ts), copied
 * alone into an empty temp folder outside the repository (no node_modules anywhere above it), and
 * run with nothing but `node`, as it will run inside a Codabench scoring program.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import { isBuiltin } from "node:module"
import * as os from "node:os"
import * as path from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import * as Bundle from "@stseval/bundle"
import { cacheRejected, expectScorerBody, scorerCache } from "@stseval/vitest-config/bodies"
import { namesUsed } from "../scripts/bundle.js"
import { builtCli } from "./support/built.js"
import { examples, runCli } from "./support/cli.js"
import { runProcess } from "@stseval/vitest-config/process"
import type { ProcessResult } from "@stseval/vitest-config/process"
import { pearson } from "@stseval/vitest-config/reference"
import { scratchDir } from "@stseval/vitest-config/temp"

const gold = path.join(examples, "sick2014/SICK_test_annotated.txt")
const submissions = path.join(examples, "sick2014/submissions")
const primaries = ["MeaningFactory_run1primary.txt", "Insight_run1primary.txt", "Baseline-overlap_run1primary.txt"]

const work = scratchDir("bundle-test")
const exe = path.join(work, "alone", "stseval.mjs")

beforeAll(async () => {
  fs.mkdirSync(path.join(work, "alone"))
  fs.copyFileSync(await builtCli(), exe)
}, 60_000)

/** `node stseval.mjs ...` in the empty folder, with its own temp folder (where the code cache goes). */
const run = (args: ReadonlyArray<string>, env: Record<string, string> = {}): Promise<ProcessResult> => {
  const tmp = path.join(work, "tmp")
  fs.mkdirSync(tmp, { recursive: true })
  return runProcess(process.execPath, [exe, ...args], {
    cwd: path.dirname(exe),
    env: { PATH: process.env.PATH ?? "", TMPDIR: tmp, NO_COLOR: "1", ...env }
  })
}

/** Every value stored under `key` anywhere in a JSON document. */
const valuesOf = (doc: unknown, key: string): Array<unknown> => {
  const out: Array<unknown> = []
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk)
    else if (typeof v === "object" && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        if (k === key) out.push(x)
        walk(x)
      }
    }
  }
  walk(doc)
  return out
}

// An independent reading of the SICK files: tab-separated with a header, matched by pair_ID.
const table = (file: string): Array<Record<string, string>> => {
  const [header, ...lines] = fs.readFileSync(file, "utf8").split(/\r?\n/).filter((l) => l !== "")
  const names = header.split("\t")
  return lines.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [names[i], v])))
}
const goldRows = new Map(table(gold).map((r) => [r.pair_ID, r]))
const relatednessPearson = (runFile: string): number => {
  const rows = table(path.join(submissions, runFile))
  return pearson(rows.map((r) => Number(r.relatedness_score)), rows.map((r) => Number(goldRows.get(r.pair_ID)!.relatedness_score)))
}

describe("the bundled stseval (one file, nothing but node)", () => {
  it("is one file whose only imports are Node's built-in modules", () => {
    const text = fs.readFileSync(exe, "utf8")
    expect(text.startsWith("#!/usr/bin/env node\n")).toBe(true)
    const required = new Set([...text.matchAll(/\brequire\(\\?"([^"\\]+)\\?"\)/g)].map((m) => m[1]))
    const imported = new Set([...text.matchAll(/^import .* from "([^"]+)"$/gm)].map((m) => m[1]))
    // the loader takes its built-ins with process.getBuiltinModule (no ESM import facades)
    const builtins = new Set([...text.matchAll(/process\.getBuiltinModule\("([^"]+)"\)/g)].map((m) => m[1]))
    expect(builtins.size).toBeGreaterThan(0)
    for (const id of [...required, ...imported, ...builtins]) expect(isBuiltin(id), id).toBe(true)
  })

  it("--version prints the package's version", async () => {
    const { version } = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../package.json"), "utf8")) as { version: string }
    const r = await run(["--version"])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(version)
  })

  it("a lone --version is answered by the loader: the program's own line, and the program is not compiled (no code cache written)", async () => {
    const tmp = path.join(work, "tmp-version")
    fs.rmSync(tmp, { recursive: true, force: true })
    fs.mkdirSync(tmp)
    const r = await runProcess(process.execPath, [exe, "--version"], { cwd: path.dirname(exe), env: { PATH: process.env.PATH ?? "", TMPDIR: tmp, NO_COLOR: "1" } })
    expect(r.code).toBe(0)
    expect(r.stdout).toBe((await runCli(["--version"])).stdout)
    const uid = typeof process.getuid === "function" ? process.getuid() : undefined
    const dir = path.join(tmp, `stseval-${uid ?? os.userInfo().username}`)
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).toEqual([])
    // with anything else on the line, the program answers (the flag's other spellings, its checks)
    const other = await runProcess(process.execPath, [exe, "--version", "--help"], { cwd: path.dirname(exe), env: { PATH: process.env.PATH ?? "", TMPDIR: tmp, NO_COLOR: "1" } })
    expect(fs.readdirSync(dir).filter((f) => f.endsWith(".v8"))).toHaveLength(1)
    expect(other.stdout).not.toBe("")
  })

  it("score: the Pearson and entailment count of a real SICK run, as computed here independently", async () => {
    const r = await run(["score", "--task", "sick2014", "--gold", gold, path.join(submissions, "MeaningFactory_run1primary.txt"), "--json"])
    expect(r.code).toBe(0)
    const doc = JSON.parse(r.stdout) as unknown
    const rs = valuesOf(doc, "pearson").filter((v): v is number => typeof v === "number")
    expect(rs.length).toBeGreaterThan(0)
    expect(rs[0]).toBeCloseTo(relatednessPearson("MeaningFactory_run1primary.txt"), 12)
    const run1 = table(path.join(submissions, "MeaningFactory_run1primary.txt"))
    const correct = run1.filter((row) => row.entailment_judgment === goldRows.get(row.pair_ID)!.entailment_judgment).length
    expect(valuesOf(doc, "correct")).toContain(correct)
    // the engine signs with its package's version, written into the single file at build
    const scoring = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../../packages/scoring/package.json"), "utf8")) as { version: string }
    expect((doc as { signature: { engine: string } }).signature.engine).toBe(`stseval-scoring@${scoring.version}`)
  })

  it("significance by bootstrap (loaded lazily, resampled on worker threads) ranks the runs by their Pearson", async () => {
    const r = await run(["significance", "--task", "sick2014", "--gold", gold, submissions, "--test", "bootstrap", "--against", "all", "--resamples", "3000", "--json"])
    expect(r.code).toBe(0)
    const estimates = valuesOf(JSON.parse(r.stdout), "estimate").filter((v): v is number => typeof v === "number")
    const expected = primaries.map(relatednessPearson).sort((a, b) => b - a)
    expect(estimates).toHaveLength(expected.length)
    estimates.forEach((e, i) => expect(e).toBeCloseTo(expected[i], 12))
    // every pair in the compact matrix: one row per run but the last
    const ps = (valuesOf(JSON.parse(r.stdout), "pValue") as Array<Array<Array<number>>>).flat(2).filter((v): v is number => typeof v === "number")
    expect(ps).toHaveLength(3)
    // 3000 resamples (enough work for worker threads); the bold's p (the normal approximation with
    // the bootstrap's standard error, docs/significance.md) has no floor of 1 / 3001: a p, or where a
    // double loses it its log10 in `log10P`
    const log10 = (valuesOf(JSON.parse(r.stdout), "log10P") as Array<Array<Array<number | null>>>).flat(2)
    ps.forEach((p, i) => {
      expect(p).toBeLessThanOrEqual(1)
      if (p < 1e-300) expect(log10[i]).toBeLessThan(-300)
      else expect(p).toBeGreaterThan(0)
    })
  })

  it("all pairs of 64 runs: resampling and the pair step on worker threads, none of which fails in the minified program", async () => {
    // 2,016 pairs x 10,000 resamples: enough work for the pair kernel's threads (the kernels the
    // workers compile from their source must not read a name the minifier renamed; a worker that
    // fails is said on stderr, and its work is redone on the calling thread after a stall)
    const folder = path.join(work, "sick64")
    fs.mkdirSync(folder, { recursive: true })
    const rows = [...goldRows.values()]
    let state = 64
    const uniform = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32
    for (let k = 0; k < 64; k++) {
      const lines = rows.map((row) => `${row.pair_ID}\t${row.entailment_judgment}\t${Number(row.relatedness_score) + (uniform() - 0.5) * (0.5 + k / 16)}`)
      fs.writeFileSync(path.join(folder, `Team${String(k).padStart(2, "0")}_run1primary.txt`), `pair_ID\tentailment_judgment\trelatedness_score\n${lines.join("\n")}\n`)
    }
    const r = await run(["significance", "--task", "sick2014", "--gold", gold, folder, "--test", "bootstrap", "--against", "all", "--json"])
    expect(r.code).toBe(0)
    expect(r.stderr).not.toContain("worker thread failed")
    const doc = JSON.parse(r.stdout) as { tests: ReadonlyArray<{ matrix: { pValue: ReadonlyArray<ReadonlyArray<number>>; log10P?: ReadonlyArray<ReadonlyArray<number | null>> } }> }
    // every pair has a p in (0, 1], or one past a double's range with its log10 beside it
    const log10 = doc.tests[0].matrix.log10P?.flat() ?? []
    expect(doc.tests[0].matrix.pValue.flat().filter((p, i) => (p > 0 && p <= 1) || (p < 1e-300 && (log10[i] ?? 0) < -300))).toHaveLength((64 * 63) / 2)
  }, 60_000)

  /**
   * The bundle imported by a wrapper that runs `before` first and reports `report` (an expression,
   * as JSON) at exit: what a start did, for tooling/bundle's deferrals.
   */
  const traced = async <T>(args: ReadonlyArray<string>, before: ReadonlyArray<string>, report: string): Promise<ProcessResult & { readonly trace: T }> => {
    const wrapper = [
      ...before,
      `process.on('exit', () => process.stderr.write('TRACE ' + JSON.stringify(${report}) + '\\n'))`,
      "process.argv = [process.argv[0], process.env.STSEVAL_EXE, ...process.argv.slice(1)]",
      "await import(process.env.STSEVAL_EXE)"
    ].join("\n")
    const tmp = path.join(work, "tmp")
    fs.mkdirSync(tmp, { recursive: true })
    const r = await runProcess(process.execPath, ["--input-type=module", "-e", wrapper, "--", ...args], {
      cwd: path.dirname(exe),
      env: { PATH: process.env.PATH ?? "", TMPDIR: tmp, NO_COLOR: "1", STSEVAL_EXE: exe }
    })
    expect(r.code).toBe(0)
    const line = r.stderr.split("\n").find((l) => l.startsWith("TRACE "))!
    return { ...r, trace: JSON.parse(line.slice("TRACE ".length)) as T }
  }

  it("defers start-up work no command needs at start: Node's crypto, zlib and readline", async () => {
    // which of Node's modules a start loads (tooling/bundle: deferred)
    const modules = async (args: ReadonlyArray<string>) =>
      (await traced<ReadonlyArray<string>>(args, ["const seen = new Set(process.moduleLoadList)"], "process.moduleLoadList.filter((m) => !seen.has(m) && m.startsWith('NativeModule ')).map((m) => m.slice(13))")).trace
    const version = await modules(["--version"])
    for (const m of ["crypto", "zlib", "readline"]) expect(version).not.toContain(m)
    // each is there when a command uses it: a score's signature hashes the gold
    expect(await modules(["score", "--task", "sick2014", "--gold", gold, path.join(submissions, "MeaningFactory_run1primary.txt")])).toContain("crypto")
  })

  it("makes effect/cli's grapheme segmenter only when help is laid out (tooling/bundle: the first Intl object of a start builds ICU's locales)", async () => {
    // the Intl.Segmenters a start makes
    const made = (args: ReadonlyArray<string>) =>
      traced<number>(args, ["let made = 0", "const Segmenter = Intl.Segmenter", "Intl.Segmenter = class extends Segmenter { constructor(...a) { super(...a); made++ } }"], "made")
    expect((await made(["score", "--task", "sick2014", "--gold", gold, path.join(submissions, "MeaningFactory_run1primary.txt")])).trace).toBe(0)
    // help measures its text with it, once made
    const help = await made(["significance", "--help"])
    expect(help.trace).toBe(1)
    expect(help.stdout).toContain("--against")
  })

  it("starts the first scorer of a scoring command of many runs before the program is compiled, and the engine scores with it", async () => {
    // the scorers started and the program's compile, in order (tooling/bundle: Ahead)
    const order = async (args: ReadonlyArray<string>) =>
      (await traced<{ events: ReadonlyArray<string>; most: number }>(args, [
        "const events = []",
        "const threads = process.getBuiltinModule('node:worker_threads')",
        "const Worker = threads.Worker",
        "threads.Worker = class extends Worker { constructor(file, options) { super(file, options); if (options?.workerData?.stsevalScoringWorker === true) events.push('scorer') } }",
        "const vm = process.getBuiltinModule('node:vm')",
        "const Script = vm.Script",
        "vm.Script = class extends Script { constructor(...a) { events.push('compile'); super(...a) } }"
      ], "{ events, most: Math.min(4, process.getBuiltinModule('node:os').availableParallelism()) }")).trace
    const folder = path.join(work, "sick20")
    fs.mkdirSync(folder, { recursive: true })
    for (const name of primaries) fs.copyFileSync(path.join(submissions, name), path.join(folder, name))
    for (let k = 0; k < 17; k++) fs.copyFileSync(path.join(submissions, primaries[k % 3]), path.join(folder, `Copy${String(k).padStart(2, "0")}_run1primary.txt`))
    const many = await order(["significance", "--task", "sick2014", "--gold", gold, folder, "--json"])
    expect(many.events.slice(0, 2)).toEqual(["scorer", "compile"])
    // taken by the engine: no more scorers than it starts itself
    expect(many.events.filter((e) => e === "scorer").length).toBeLessThanOrEqual(many.most)
    // a few runs are scored on the program's thread: none started, ahead or later
    const few = await order(["significance", "--task", "sick2014", "--gold", gold, submissions, "--json"])
    expect(few.events[0]).toBe("compile")
    expect(few.events).not.toContain("scorer")
  })

  it("a copy of the file that gained a final newline (an editor, a packager) still runs", async () => {
    const copy = path.join(work, "alone", "stseval-newline.mjs")
    fs.writeFileSync(copy, `${fs.readFileSync(exe, "utf8")}\n`)
    const r = await runProcess(process.execPath, [copy, "tasks"], { cwd: path.dirname(copy), env: { PATH: process.env.PATH ?? "", TMPDIR: path.join(work, "tmp"), NO_COLOR: "1" } })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain("sick2014")
  })

  it("each thread reads only its own body, at the bytes its loader names; a copy whose loader moved them still runs", async () => {
    const bytes = fs.readFileSync(exe)
    const text = bytes.toString("latin1")
    const m = /const \[start, end, encoding\] = asWorker \? \[\s*(\d+),\s*(\d+), "(\w+)"\s*\] : \[\s*(\d+),\s*(\d+), "(\w+)"\s*\]/.exec(text)
    expect(m).not.toBeNull()
    const [, ws, we, wenc, ps, pe, penc] = m!
    // the named bytes are exactly each comment's text, from its first byte to its end
    const at = (start: string, end: string, before: string) => {
      expect(bytes.subarray(Number(start) - before.length, Number(start)).toString("latin1")).toBe(before)
      expect(bytes.subarray(Number(end), Number(end) + 3).toString("latin1")).toBe("\n*/")
    }
    at(ws, we, "\n/*stseval-worker\n")
    at(ps, pe, "\n/*stseval-program\n")
    // both bodies are ASCII (esbuild escapes the rest): read as latin1, with no decoding
    expect([wenc, penc]).toEqual(["latin1", "latin1"])
    expect(Number(pe)).toBeLessThan(bytes.length)
    // a copy with a line more above them (an edited loader): found by searching, as before
    const copy = path.join(work, "alone", "stseval-moved.mjs")
    fs.writeFileSync(copy, text.replace("\nconst fs = ", "\n// moved\nconst fs = "), "latin1")
    const r = await runProcess(process.execPath, [copy, "score", "--task", "sick2014", "--gold", gold, path.join(submissions, "MeaningFactory_run1primary.txt")], {
      cwd: path.dirname(copy),
      env: { PATH: process.env.PATH ?? "", TMPDIR: path.join(work, "tmp"), NO_COLOR: "1" }
    })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain("MeaningFactory/run1")
  })

  it("a user's mistake is one line on stderr and exit 2, as from source", async () => {
    const r = await run(["score", "--task", "sick2014", "--gold", path.join(work, "no-such-gold.txt"), gold])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain("no-such-gold.txt")
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })

  it("keeps V8's code cache in the user's own temp folder (mode 0700), reuses it, and NODE_DISABLE_COMPILE_CACHE turns it off", async () => {
    const uid = typeof process.getuid === "function" ? process.getuid() : undefined
    const dir = path.join(work, "tmp", `stseval-${uid ?? os.userInfo().username}`)
    const caches = () => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".v8")) : [])
    fs.rmSync(path.join(work, "tmp"), { recursive: true, force: true })
    const off = await run(["tasks"], { NODE_DISABLE_COMPILE_CACHE: "1" })
    expect(off.code).toBe(0)
    expect(caches()).toEqual([])
    const first = await run(["tasks"])
    const files = caches()
    expect(files).toHaveLength(1)
    // keyed by the program's hash, the program file's path, the command, Node's version and the architecture
    expect(files[0]).toMatch(new RegExp(`^v8-[0-9a-f]{16}-[0-9a-f]{8}-tasks-${process.version}-${process.arch}\\.v8$`))
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700)
    const written = fs.statSync(path.join(dir, files[0])).mtimeMs
    const second = await run(["tasks"])
    expect(second).toEqual(first)
    expect(first.stdout).toBe(off.stdout)
    // read, not rewritten
    expect(fs.statSync(path.join(dir, files[0])).mtimeMs).toBe(written)
    // a folder others can read or write is neither read nor written
    for (const mode of [0o777, 0o755, 0o750]) {
      fs.chmodSync(dir, mode)
      fs.rmSync(path.join(dir, files[0]), { force: true })
      expect((await run(["tasks"])).stdout).toBe(off.stdout)
      expect(caches(), mode.toString(8)).toEqual([])
    }
    fs.chmodSync(dir, 0o700)
    // one cache per command (each holds what its command compiled); no command is "other"
    expect((await run(["--help"])).code).toBe(0)
    expect((await run(["tasks"])).stdout).toBe(off.stdout)
    expect(caches().map((f) => f.replace(/^v8-[0-9a-f]{16}-[0-9a-f]{8}-([a-z-]+)-.*$/, "$1")).sort()).toEqual(["other", "tasks"])
    // another checkout of the same program (another path) has caches of its own: its stack traces
    // never name this one's files
    fs.mkdirSync(path.join(work, "other-checkout"), { recursive: true })
    const copy = path.join(work, "other-checkout", "stseval.mjs")
    fs.copyFileSync(exe, copy)
    const before = new Set(caches())
    const r = await runProcess(process.execPath, [copy, "tasks"], { cwd: path.dirname(copy), env: { PATH: process.env.PATH ?? "", TMPDIR: path.join(work, "tmp"), NO_COLOR: "1" } })
    expect(r.stdout).toBe(off.stdout)
    const added = caches().filter((f) => !before.has(f))
    expect(added).toHaveLength(1)
    expect(added[0].split("-").slice(0, 2)).toEqual(files[0].split("-").slice(0, 2))
    expect(added[0]).not.toBe(files[0])
  })

  it("a FIFO or a link to /dev/zero in place of a code cache file hangs no start and takes no memory: ignored, and replaced by a real cache", () => {
    const uid = typeof process.getuid === "function" ? process.getuid() : undefined
    const tmp = path.join(work, "tmp-hostile")
    const dir = path.join(tmp, `stseval-${uid ?? os.userInfo().username}`)
    fs.rmSync(tmp, { recursive: true, force: true })
    fs.mkdirSync(tmp)
    // bounded: a start that hangs or reads /dev/zero is killed, and fails the test
    const start = (args: ReadonlyArray<string>) =>
      spawnSync(process.execPath, [exe, ...args], { cwd: path.dirname(exe), env: { PATH: process.env.PATH ?? "", TMPDIR: tmp, NO_COLOR: "1" }, encoding: "utf8", timeout: 20_000 })
    const clean = start(["tasks"])
    expect(clean.status).toBe(0)
    expect(start(["--help"]).status).toBe(0)
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".v8"))
    const tasks = files.find((f) => f.includes("-tasks-"))!
    const other = files.find((f) => f.includes("-other-"))!
    fs.rmSync(path.join(dir, tasks))
    expect(spawnSync("mkfifo", [path.join(dir, tasks)]).status).toBe(0)
    fs.rmSync(path.join(dir, other))
    fs.symlinkSync("/dev/zero", path.join(dir, other))
    const fifo = start(["tasks"])
    expect(fifo.status).toBe(0)
    expect(fifo.stdout).toBe(clean.stdout)
    const zero = start(["--help"])
    expect(zero.status).toBe(0)
    // replaced by real caches at exit
    expect(fs.lstatSync(path.join(dir, tasks)).isFile()).toBe(true)
    expect(fs.lstatSync(path.join(dir, other)).isFile()).toBe(true)
  })

  it("a scoring command's scorer thread keeps a code cache of its own beside the command's, saved after its first run and then reused", async () => {
    const uid = typeof process.getuid === "function" ? process.getuid() : undefined
    const dir = path.join(work, "tmp", `stseval-${uid ?? os.userInfo().username}`)
    const caches = () => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".v8")) : []).sort()
    fs.rmSync(path.join(work, "tmp"), { recursive: true, force: true })
    // a run of more than 1 MiB (a real run and blank lines): a smaller one is scored on the program's own thread
    const large = path.join(work, "Large_run1primary.txt")
    fs.writeFileSync(large, fs.readFileSync(path.join(submissions, "MeaningFactory_run1primary.txt"), "utf8") + "\n".repeat(1_200_000))
    const args = ["score", "--task", "sick2014", "--gold", gold, large, "--json"]
    const first = await run(args)
    // (the run fails, over the line limit, after its scorer read it: exit 1, as for any failed run)
    expect(first.code).toBe(1)
    expect(caches().map((f) => f.replace(/^v8-[0-9a-f]{16}-[0-9a-f]{8}-([a-z-]+)-.*$/, "$1"))).toEqual(["score", "score-worker"])
    // nothing half-written left beside them
    expect(fs.readdirSync(dir).filter((f) => !f.endsWith(".v8"))).toEqual([])
    const worker = path.join(dir, caches()[1])
    const written = fs.statSync(worker).mtimeMs
    const second = await run(args)
    expect(second.stdout).toBe(first.stdout)
    // read, not rewritten
    expect(fs.statSync(worker).mtimeMs).toBe(written)
    // the same figures with no cache at all
    expect((await run(args, { NODE_DISABLE_COMPILE_CACHE: "1" })).stdout).toBe(first.stdout)
  })

  it("a scorer runs the scorer-only body the file also carries (none of the command line), and scores as the program would", async () => {
    // the two bodies, as the loader reads them back; none of the commands: the rank command's flags and the tables' renderers are not in it
    const { worker: scorerBody, program: programBody } = expectScorerBody(Bundle.bodies(fs.readFileSync(exe, "utf8")), { programOnly: "--resamples", under: 0.5 })
    // 20 runs: more than the engine scores on its own thread, so they go to scorers (in batches)
    const folder = path.join(work, "twenty")
    fs.mkdirSync(folder, { recursive: true })
    for (let i = 1; i <= 20; i++) fs.copyFileSync(path.join(submissions, "MeaningFactory_run1primary.txt"), path.join(folder, `Team${i}_run1primary.txt`))
    fs.rmSync(path.join(work, "tmp"), { recursive: true, force: true })
    const r = await run(["rank", "--task", "sick2014", "--gold", gold, folder, "--json"])
    expect(r.code).toBe(0)
    const rs = valuesOf(JSON.parse(r.stdout), "pearson").filter((v): v is number => typeof v === "number")
    expect(rs.length).toBeGreaterThanOrEqual(20)
    for (const x of rs) expect(x).toBeCloseTo(relatednessPearson("MeaningFactory_run1primary.txt"), 12)
    // the scorers' code cache is V8's for the scorer body, not for the program (V8 rejects a cache
    // made from another source)
    expect(cacheRejected({ program: programBody, worker: scorerBody }, scorerCache(path.join(work, "tmp"), /-rank-worker-.*\.v8$/))).toEqual({ worker: false, program: true })
  })

  it.skipIf(process.platform === "win32")("a link planted where the user's folder goes is never followed: no cache is read or written through it", async () => {
    const tmp = path.join(work, "tmp-planted")
    fs.rmSync(tmp, { recursive: true, force: true })
    fs.mkdirSync(tmp, { recursive: true })
    const uid = typeof process.getuid === "function" ? process.getuid() : undefined
    const elsewhere = path.join(work, "planted-target")
    fs.mkdirSync(elsewhere, { recursive: true, mode: 0o700 })
    fs.chmodSync(elsewhere, 0o700)
    fs.symlinkSync(elsewhere, path.join(tmp, `stseval-${uid ?? os.userInfo().username}`))
    const r = await runProcess(process.execPath, [exe, "tasks"], { cwd: path.dirname(exe), env: { PATH: process.env.PATH ?? "", TMPDIR: tmp, NO_COLOR: "1" } })
    expect(r.code).toBe(0)
    expect(fs.readdirSync(elsewhere)).toEqual([])
  })
})

describe("which importers of a library the bundle defers (namesUsed)", () => {
  it("reads named imports and namespace members; anything else keeps the library eager", () => {
    const names = (source: string) => {
      const used = namesUsed(source, "yaml")
      return used === undefined ? undefined : [...used].sort()
    }
    expect(names('import { Effect } from "effect"\nimport {\n  parse,\n  stringify as dump\n} from "yaml"\n')).toEqual(["parse", "stringify"])
    expect(names('import * as Yaml from "yaml"\nconst a = Yaml.parse(x)\nconst b = Yaml .stringify(y)\n')).toEqual(["parse", "stringify"])
    expect(names('import type { Document } from "yaml"\nimport { parse } from "yaml"\n')).toEqual(["parse"])
    // the namespace passed around, indexed, or named in a comment: not provably plain calls
    expect(names('import * as Yaml from "yaml"\nuse(Yaml)\n')).toBeUndefined()
    expect(names('import * as Yaml from "yaml"\nYaml[k](x)\n')).toBeUndefined()
    expect(names('// see Yaml-Structure.md\nimport * as Yaml from "yaml"\nYaml.parse(x)\n')).toBeUndefined()
    expect(names('import Yaml from "yaml"\n')).toBeUndefined()
    expect(names('import { parse } from "yaml-extra"\n')).toBeUndefined()
    // a namespace named like the module: the import statement itself is not a use
    const zlib = (source: string) => {
      const used = namesUsed(source, "node:zlib")
      return used === undefined ? undefined : [...used].sort()
    }
    expect(zlib('import * as zlib from "node:zlib";\nif (typeof zlib.crc32 === "function") zlib.crc32(b)\nzlib.inflateRawSync(d)\n')).toEqual(["crc32", "inflateRawSync"])
    expect(zlib('import * as zlib from "node:zlib";\nconst z = zlib\n')).toBeUndefined()
  })
})
