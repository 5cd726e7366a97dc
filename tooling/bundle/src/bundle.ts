/**
 * The single-file bundler of the three executables (`stseval` in apps/cli, `stseval-report` in
 * apps/report, `stseval-watcher` in apps/watcher): ONE self-contained ESM file per app that runs
 * with nothing but `node` (no node_modules beside it), e.g. inside a Codabench scoring program or a
 * container. Each app's `scripts/bundle.ts` calls `bundle` with its entry and version:
 *
 *   import { bundle } from "@stseval/bundle"
 *   await bundle({ name: "stseval", entry: "src/bin.ts", packageDir: cliRoot, outfile: "/tmp/stseval.mjs" })
 *
 * How it is fast to start. esbuild bundles the entry and everything it imports (tree-shaken, from
 * the workspace packages' sources), as a CommonJS-style function body: modules that the app loads
 * lazily (`import()`; the CLI's src/internal/Lazy.ts: significance with @stdlib, the report
 * generator, the watcher) become lazily initialised module factories inside it, evaluated only by
 * the commands that need them. The body is then stored in a block comment at the end of a small ESM loader, which
 * reads it back from its own file (only its bytes, whose place the bundler writes into the loader:
 * a scorer thread reads its 0.8 MB body, not the 2.9 MB file decoded), compiles it with node:vm and keeps V8's code cache for it
 * between runs (a temp folder per user, keyed by the body's hash and the Node version). Parsing and
 * compiling a megabyte of JavaScript is most of a cold start (70-80 ms here); with the cache the
 * start is module initialisation and the work itself. A comment is skipped, not parsed: V8 scans
 * it about three times faster than the same text as a string literal, which it must also unescape
 * and intern (3 ms a start).
 *
 * @since 0.1.0
 */
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import * as esbuild from "esbuild"

/**
 * @since 0.1.0
 */
export interface BundleOptions {
  /** The executable's name, in its first comment line (`stseval`, `stseval-report`, ...). */
  readonly name: string
  /** The app's folder: its package.json gives the version; `entry` is relative to it. */
  readonly packageDir: string
  /** The program's entry, relative to `packageDir` (e.g. `src/bin.ts`). */
  readonly entry: string
  /**
   * A global the program reads to know it is bundled and its version (it has no package.json
   * beside it): set to the package's version (a JSON string). Default `STSEVAL_BUNDLED_VERSION`.
   */
  readonly versionGlobal?: string
  /** Where to write the executable (made executable, `#!/usr/bin/env node`). */
  readonly outfile: string
  /** Minify the program (default true: a third of the size, and of the compile time). */
  readonly minify?: boolean
  /** Also write esbuild's metafile beside it (`<outfile>.meta.json`), for bundle analysis. */
  readonly metafile?: boolean
  /**
   * More globals written in (esbuild `define`: name to a JavaScript expression), e.g. the check
   * page's prebuilt scripts (`STSEVAL_PAGE_SCRIPTS`, apps/cli's `src/page/Scripts.ts`).
   */
  readonly define?: Readonly<Record<string, string>> | undefined
  /**
   * A lone `--version` is answered by the loader, `<name> v<version>` (the line the program's
   * own flag prints), before the program is read or compiled: that start is then Node's own plus
   * the file's parse (`stseval --version`: 0.10-0.16 s of CPU against 0.24-0.7 s, at load 14).
   */
  readonly answersVersion?: boolean | undefined
  /**
   * A second, smaller body the loader runs instead of the program in a worker thread started with
   * this `workerData` (every key equal): the app's scorer entry (`entry`, relative to `packageDir`:
   * what reading and checking a run needs, none of the command line), bundled as the program is and
   * carried in the same file (the file stays one: Codabench's scoring program and the release check
   * copy only it). A scorer then compiles and initialises its own code, not the whole program's
   * again; its code cache is kept as the program's is, beside it. A thread has no exit of its own
   * at which to save that cache: the loader leaves a function that saves it under `saveCacheKey`
   * (a `Symbol.for` key of `globalThis`), which the worker's body calls once it has done a first
   * piece of its work (@stseval/scoring's `Isolation.scorerThread` gives both keys).
   */
  readonly worker?: { readonly entry: string; readonly workerData: Readonly<Record<string, unknown>>; readonly saveCacheKey: string; readonly ahead?: Ahead | undefined } | undefined
}

/**
 * A first scorer the loader starts itself, before the program is read and compiled (40-60 ms of a
 * start, which the scorer's own start then overlaps), when `when` (a self-contained function's
 * source, given the command line's arguments) and `manyRuns` (given the arguments after the command
 * and `inThreadRuns`) say so; the engine takes it from `globalThis[Symbol.for(key)]` as
 * `{ worker, memoryMb }` (@stseval/scoring's `Isolation.scorerThread.ahead`, which gives all but
 * `when`). Without `when`, no scorer is started ahead.
 */
export interface Ahead {
  readonly key: string
  readonly memoryMb: number
  readonly manyRuns: string
  readonly inThreadRuns: number
  readonly when?: string | undefined
}

/**
 * @since 0.1.0
 */
export interface BundleResult {
  readonly outfile: string
  readonly bytes: number
  readonly version: string
  /** The program's hash: the key of its code cache. */
  readonly hash: string
}

/**
 * Libraries only some commands use whose module initialisation costs every start (fflate builds its
 * inflate tables, about 9 ms; yaml about 3 ms): an importer that uses only the plain functions listed
 * here gets a stand-in module whose functions load the library on first call (esbuild turns that
 * `require` into a lazily initialised module in the same file). Which names an importer uses is read
 * from its source (`import { a, b } from "lib"`, or `import * as L from "lib"` and every `L.name`);
 * an importer that uses anything else (a class, a default import, `L[x]`) gets the library itself,
 * as without this plugin: never a missing export, only a lost deferral.
 */
const deferred: Readonly<Record<string, ReadonlyArray<string>>> = {
  fflate: ["unzipSync", "gunzipSync", "zipSync", "gzipSync", "unzlibSync", "zlibSync", "inflateSync", "deflateSync"],
  yaml: ["parse", "parseDocument", "parseAllDocuments", "stringify"],
  // Node's own modules that only some commands use: the terminal's line reader (for --wizard
  // prompts) and the embeddings file reader; hashing (signatures, downloads), which loads all of
  // Node's crypto and streams; and decompression (zips, downloads). About 8 ms together.
  "node:readline": ["createInterface", "emitKeypressEvents"],
  "node:crypto": ["createHash", "randomBytes"],
  "node:zlib": ["gunzipSync", "inflateRawSync", "crc32"]
}

const NAMESPACE = "stseval-deferred"

const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")

/** The names `source` uses from module `id`, or undefined when it uses it in any other way. */
export const namesUsed = (source: string, id: string): ReadonlySet<string> | undefined => {
  const from = `\\s+from\\s+["']${escape(id)}["']`
  const names = new Set<string>()
  let found = false
  // one import statement: the clause may span lines but holds no other `import`
  const imports = new RegExp(`\\bimport\\s+(type\\s+)?((?:(?!\\bimport\\b)[^;])*?)${from}`, "g")
  // the code outside these import statements, where a namespace's uses are looked for
  const body = source.replace(imports, "")
  for (const m of source.matchAll(imports)) {
    found = true
    if (m[1] !== undefined) continue // `import type`: erased
    const clause = m[2].trim()
    const named = /^\{([^}]*)\}$/.exec(clause)
    const namespace = /^\*\s+as\s+([A-Za-z_$][\w$]*)$/.exec(clause)
    if (named !== null) {
      for (const part of named[1].split(",").map((x) => x.trim()).filter((x) => x !== "")) {
        if (part.startsWith("type ")) continue
        names.add(part.split(/\s+as\s+/)[0].trim())
      }
    } else if (namespace !== null) {
      const ns = escape(namespace[1])
      // any use of the namespace other than `ns.name` (passing it around, ns[x]) keeps the library eager
      const uses = [...body.matchAll(new RegExp(`(?<![\\w$.])${ns}(?![\\w$])(\\s*\\.\\s*([A-Za-z_$][\\w$]*))?`, "g"))]
      for (const u of uses) {
        if (u[2] === undefined) return undefined
        names.add(u[2])
      }
    } else return undefined
  }
  return found ? names : undefined
}

/**
 * The importer's code without its comments (esbuild's own reading of it), so that a library named
 * in a comment ("node:zlib's maxOutputLength") does not count as a use other than a plain call.
 */
const withoutComments = (file: string): string =>
  esbuild.transformSync(fs.readFileSync(file, "utf8"), { loader: /\.[cm]?tsx?$/.test(file) ? "ts" : "js", legalComments: "none" }).code

const deferPlugin: esbuild.Plugin = {
  name: "stseval-defer",
  setup(build) {
    const filter = new RegExp(`^(${Object.keys(deferred).map(escape).join("|")})$`)
    build.onResolve({ filter }, (args) => {
      // the stand-in's own `require` resolves normally
      if (args.kind === "require-call" || args.importer === "") return undefined
      const used = namesUsed(withoutComments(args.importer), args.path)
      const deferrable = deferred[args.path]
      if (used === undefined || [...used].some((name) => !deferrable.includes(name))) return undefined
      return { path: args.path, namespace: NAMESPACE, pluginData: args.resolveDir }
    })
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({
      contents: [
        "let loaded",
        `const load = () => (loaded ??= require(${JSON.stringify(args.path)}))`,
        ...deferred[args.path].map((name) => `export const ${name} = (...args) => load().${name}(...args)`)
      ].join("\n"),
      resolveDir: args.pluginData as string,
      loader: "js"
    }))
  }
}

/**
 * effect/cli makes an `Intl.Segmenter` when its help layout module is initialised, to measure help
 * text: a program's first Intl object builds ICU's set of locales, 14-18 ms of every start, for a
 * segmenter only `--help` uses. The bundle makes it on its first use; a changed effect whose text
 * is not found keeps it eager, with a warning.
 */
const EAGER_SEGMENTER = '/*#__PURE__*/new Intl.Segmenter(undefined, {\n  granularity: "grapheme"\n})'
const lazySegmenterPlugin: esbuild.Plugin = {
  name: "stseval-lazy-segmenter",
  setup(build) {
    build.onLoad({ filter: /[\\/]effect[\\/]dist[\\/]cli[\\/]CliOutput\.js$/ }, (args) => {
      const source = fs.readFileSync(args.path, "utf8")
      if (!source.includes(EAGER_SEGMENTER)) return { contents: source, loader: "js", warnings: [{ text: `${args.path}: its Intl.Segmenter is not where the bundle defers it (made at start)` }] }
      const lazy = `(() => { let made; return { segment: (text) => (made ??= new Intl.Segmenter(undefined, { granularity: "grapheme" })).segment(text) } })()`
      return { contents: source.replace(EAGER_SEGMENTER, lazy), loader: "js" }
    })
  }
}

/**
 * The comment that holds the program. Inside it, each end-of-comment of the program is written as
 * COMMENT_END_ESCAPED (a text the program must not hold, checked) and restored by the loader.
 */
const PROGRAM_START = "\n/*stseval-program\n"
/** The comment that holds the worker's body (`BundleOptions.worker`), before the program's. */
const WORKER_START = "\n/*stseval-worker\n"
const PROGRAM_END = "\n*/\n"
const COMMENT_END_ESCAPED = "*\\u002f"

/**
 * The two bodies of a built file, as its loader reads them back (`worker` undefined without a
 * scorer body): what the apps' tests check a scorer thread runs.
 */
export const bodies = (text: string): { readonly program: string | undefined; readonly worker: string | undefined } => {
  const body = (start: string): string | undefined => {
    const at = text.indexOf(start)
    return at < 0 ? undefined : text.slice(at + start.length, text.indexOf(PROGRAM_END, at)).replaceAll(COMMENT_END_ESCAPED, "*/")
  }
  return { program: body(PROGRAM_START), worker: body(WORKER_START) }
}

/** The parameters of the function the program is wrapped in; the loader passes them. */
const PARAMS = ["require", "module", "exports", "__filename", "__dirname", "__stseval_import_meta_url"]

/**
 * A worker is ended with its process, without an exit of its own to wait for: it saves its cache
 * when its body calls the function left under `saveCacheKey` (`BundleOptions.worker`).
 */
const workerCacheCode = (w: Worker): string => `else globalThis[Symbol.for(${JSON.stringify(w.saveCacheKey)})] = () => {
    globalThis[Symbol.for(${JSON.stringify(w.saveCacheKey)})] = undefined
    saveCache()
  }`

/** The loader's answer to a lone `--version` (`BundleOptions.answersVersion`), on the main thread only. */
const answersVersionCode = (name: string, version: string, on: boolean): string =>
  on
    ? `if (process.argv.length === 3 && process.argv[2] === "--version" && process.getBuiltinModule("node:worker_threads").isMainThread) {
  // written at once (a pipe's write is asynchronous on some platforms, and exit would cut it)
  process.getBuiltinModule("node:fs").writeSync(1, ${JSON.stringify(`${name} v${version}\n`)})
  process.exit(0)
}
`
    : ""

/** The worker's body and the `workerData` that selects it (`BundleOptions.worker`). */
interface Worker {
  readonly body: string
  readonly workerData: Readonly<Record<string, unknown>>
  readonly saveCacheKey: string
  readonly ahead?: Ahead | undefined
}

/** The loader's start of a scorer ahead (`Ahead`), started as the engine starts one (@stseval/scoring's pool). */
const aheadCode = (w: Worker | undefined): string =>
  w?.ahead?.when === undefined
    ? ""
    : `if (mainThread && (${w.ahead.when})(process.argv.slice(2)) && (${w.ahead.manyRuns})(process.argv.slice(3), ${w.ahead.inThreadRuns})) {
  // a thread refused, or an error before the engine takes the scorer (or when it never does), is
  // the engine's to meet when it starts its own: none is thrown here
  try {
    const scorer = new (process.getBuiltinModule("node:worker_threads").Worker)(new URL(import.meta.url), { workerData: ${JSON.stringify(w.workerData)}, resourceLimits: { maxOldGenerationSizeMb: ${w.ahead.memoryMb} }, execArgv: [], argv: process.argv.slice(2) })
    scorer.on("error", () => {}).unref()
    globalThis[Symbol.for(${JSON.stringify(w.ahead.key)})] = { worker: scorer, memoryMb: ${w.ahead.memoryMb} }
  } catch {}
}
`

/** The loader's test of whether this thread runs the worker's body (`asWorker`). */
const workerBodyCode = (worker: Worker | undefined): string =>
  worker === undefined
    ? "const asWorker = false\n"
    : `const asWorker = !mainThread && Object.entries(${JSON.stringify(worker.workerData)}).every(([k, v]) => process.getBuiltinModule("node:worker_threads").workerData?.[k] === v)
`

/** Where a body lies in the file, in bytes (from its first byte to the end of its comment's text), and its encoding. */
type Section = readonly [start: number, end: number, encoding: "latin1" | "utf8"]
interface Sections {
  readonly worker: Section
  readonly program: Section
}
const NO_SECTION: Section = [0, 0, "latin1"]

/** A section as the loader reads it: numbers of a fixed width, so that writing them in moves nothing. */
const sectionCode = ([start, end, encoding]: Section): string => `[${String(start).padStart(12)}, ${String(end).padStart(12)}, ${JSON.stringify(encoding).padEnd(8)}]`

/** Where the worker's body and the program lie in `out`, the loader's text (`Sections`). */
const sectionsOf = (out: string, hasWorker: boolean): Sections => {
  const bytes = (i: number) => Buffer.byteLength(out.slice(0, i))
  // ASCII exactly when each character is one byte in UTF-8
  const section = (from: number, to: number): Section => [bytes(from), bytes(to), Buffer.byteLength(out.slice(from, to)) === to - from ? "latin1" : "utf8"]
  const w = out.indexOf(WORKER_START) + WORKER_START.length
  const p = out.lastIndexOf(PROGRAM_START) + PROGRAM_START.length
  return {
    worker: hasWorker ? section(w, out.indexOf(PROGRAM_END.trimEnd(), w)) : NO_SECTION,
    program: section(p, out.lastIndexOf(PROGRAM_END.trimEnd()))
  }
}

/**
 * The ESM loader around the program. Plain JavaScript, kept small: it runs before anything is cached.
 * The code cache is V8's serialised bytecode for this exact program; V8 itself rejects a cache made
 * by another V8 version or with other flags (then it is rebuilt), and the file name carries the
 * program's hash, so a rebuilt stseval never reads an older program's cache, the program file's
 * path (V8's cache holds the script's name: two checkouts of one program sharing a cache printed
 * the other checkout's paths in stack traces), and the command (one cache per command, each holding
 * what that command compiled). The folder is the user's own, `<temp>/stseval-<uid>`: made with mode
 * 0700, and used only when it is a folder (not a link) owned by the user that no one else may read
 * or write (checked with lstat before every read and write): on a shared server another user can
 * neither plant a cache nor read one. The cache file itself is read with the checks of a run
 * (`readCache`: no link followed, no blocking open, a regular file, capped): a FIFO or a link to
 * /dev/zero in that folder never hangs a start nor fills its memory. NODE_DISABLE_COMPILE_CACHE=1
 * turns it off.
 */
const loader = (
  name: string,
  body: string,
  hash: string,
  version: string,
  answersVersion: boolean,
  worker: Worker | undefined,
  sections: Sections = { worker: NO_SECTION, program: NO_SECTION }
): string => `#!/usr/bin/env node
// ${name} ${version}: the whole program in one file, built by tooling/bundle/src/bundle.ts.
// The program is the comment at the end of this file, read back and compiled with node:vm so that
// V8's code cache can be reused between runs (see bundle.ts for why).
${answersVersionCode(name, version, answersVersion)}// Built-ins through process.getBuiltinModule, not \`import\`: an ESM import of a built-in builds a
// facade that reads every export, and reading node:fs's ReadStream loads its streams (5 ms).
const fs = process.getBuiltinModule("node:fs")
const { createRequire } = process.getBuiltinModule("node:module")
const os = process.getBuiltinModule("node:os")
const path = process.getBuiltinModule("node:path")
const { fileURLToPath } = process.getBuiltinModule("node:url")
const vm = process.getBuiltinModule("node:vm")

const filename = fileURLToPath(import.meta.url)
const mainThread = process.getBuiltinModule("node:worker_threads").isMainThread
${workerBodyCode(worker)}${aheadCode(worker)}// Only this thread's body is read (a scorer's, not the whole file): where it lies in the file, in
// bytes, and its encoding (latin1 when it is ASCII: no decoding), written in by the bundler.
const [start, end, encoding] = asWorker ? ${sectionCode(sections.worker)} : ${sectionCode(sections.program)}
const mark = asWorker ? ${JSON.stringify(WORKER_START)} : ${JSON.stringify(PROGRAM_START)}
const bodyAt = () => {
  const fd = fs.openSync(filename, "r")
  try {
    const bytes = Buffer.allocUnsafe(end - start + mark.length + 3)
    let n = 0
    while (n < bytes.length) {
      const got = fs.readSync(fd, bytes, n, bytes.length - n, start - mark.length + n)
      if (got === 0) break
      n += got
    }
    const text = bytes.toString(encoding, 0, n)
    return text.startsWith(mark) && text.endsWith("\\n*/") ? text.slice(mark.length, -3) : undefined
  } finally {
    fs.closeSync(fd)
  }
}
// not where it should be (a copy changed since it was built): the whole file searched for it
// (the end found, not counted from the file's end: a copy that gained a final newline still runs)
const searched = () => {
  const self = fs.readFileSync(filename, "utf8")
  return asWorker
    ? self.slice(self.indexOf(${JSON.stringify(WORKER_START)}) + ${WORKER_START.length}, self.indexOf(${JSON.stringify(PROGRAM_END.trimEnd())}, self.indexOf(${JSON.stringify(WORKER_START)})))
    : self.slice(self.lastIndexOf(${JSON.stringify(PROGRAM_START)}) + ${PROGRAM_START.length}, self.lastIndexOf(${JSON.stringify(PROGRAM_END.trimEnd())}))
}
const program = (bodyAt() ?? searched()).replaceAll(${JSON.stringify(COMMENT_END_ESCAPED)}, "*/")
const uid = typeof process.getuid === "function" ? process.getuid() : undefined
const cacheDir = path.join(os.tmpdir(), "stseval-" + (uid === undefined ? os.userInfo().username : uid))
// One cache per command: a cache holds the functions the run that wrote it compiled, so \`score\`
// after a first \`--help\` would otherwise compile all of scoring on every start.
const command = /^[a-z][a-z-]{0,31}$/.test(process.argv[2] ?? "") ? process.argv[2] : "other"
// FNV-1a of the program file's path (node:crypto would cost its loading on every start)
let where = 0x811c9dc5
for (let i = 0; i < filename.length; i++) where = Math.imul(where ^ filename.charCodeAt(i), 0x01000193) >>> 0
// A worker thread running this file (the scoring engine's isolated scorers) has a cache of its own
// beside the command's: it compiles other functions (reading and checking runs) than the command.
const role = mainThread ? command : command + "-worker"
const cacheFile = path.join(cacheDir, "v8-${hash}-" + where.toString(16).padStart(8, "0") + "-" + role + "-" + process.version + "-" + process.arch + ".v8")
const useCache = !process.env.NODE_DISABLE_COMPILE_CACHE
/** The user's own folder: a folder, not a link, owned by the user, closed to everyone else. */
const ours = (dir) => {
  const st = fs.lstatSync(dir)
  return st.isDirectory() && (uid === undefined || (st.uid === uid && (st.mode & 0o077) === 0))
}
/**
 * The cache file, read as runs are: opened without following a link and without blocking (a FIFO
 * planted under its name opens at once), then read only when it is a regular file of the user's of
 * at most 64 MiB (a link to /dev/zero, a FIFO or a huge file is not a cache: it is ignored, and
 * replaced by a real one at exit), exactly its size.
 */
const readCache = () => {
  const c = fs.constants
  let fd
  try {
    fd = fs.openSync(cacheFile, c.O_RDONLY | (c.O_NONBLOCK ?? 0) | (c.O_NOFOLLOW ?? 0))
    const st = fs.fstatSync(fd)
    if (!st.isFile() || (uid !== undefined && st.uid !== uid) || st.size > 64 * 1024 * 1024) return undefined
    const bytes = Buffer.allocUnsafe(st.size)
    let n = 0
    while (n < st.size) {
      const got = fs.readSync(fd, bytes, n, st.size - n, n)
      if (got === 0) break
      n += got
    }
    return n === st.size ? bytes : undefined
  } catch {
    return undefined
  } finally {
    if (fd !== undefined) fs.closeSync(fd)
  }
}
let cachedData
if (useCache) {
  try {
    if (ours(cacheDir)) cachedData = readCache()
  } catch {}
}
const script = new vm.Script(program, {
  filename,
  cachedData,
  importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER
})
const saveCache = () => {
  try {
    try {
      fs.mkdirSync(cacheDir, { mode: 0o700 })
    } catch {}
    if (!ours(cacheDir)) return
    const tmp = cacheFile + "." + process.pid + "." + process.getBuiltinModule("node:worker_threads").threadId
    fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600, flag: "wx" })
    fs.renameSync(tmp, cacheFile)
  } catch {}
}
if (useCache && (cachedData === undefined || script.cachedDataRejected)) {
  // At exit, so that the cache also holds the functions this run compiled, not only the top level.
  if (mainThread) process.once("exit", saveCache)
  ${worker === undefined ? "" : workerCacheCode(worker)}
}
const module = { exports: {} }
script.runInThisContext()(createRequire(import.meta.url), module, module.exports, filename, path.dirname(filename), import.meta.url)
${worker === undefined ? "" : `${WORKER_START}${worker.body.replaceAll("*/", COMMENT_END_ESCAPED)}${PROGRAM_END}`}${PROGRAM_START}${body.replaceAll("*/", COMMENT_END_ESCAPED)}${PROGRAM_END}`

/**
 * Bundle an app into one executable file.
 *
 * @since 0.1.0
 */
// the workspace's scoring package, whose version a bundle cannot read from its package.json
const scoringVersion = (JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../../packages/scoring/package.json"), "utf8")) as { readonly version: string }).version

export const bundle = async (options: BundleOptions): Promise<BundleResult> => {
  const pkg = JSON.parse(fs.readFileSync(path.join(options.packageDir, "package.json"), "utf8")) as { readonly version: string }
  const minify = options.minify ?? true
  const build = (entry: string) => esbuild.build({
    entryPoints: [path.join(options.packageDir, entry)],
    absWorkingDir: options.packageDir,
    bundle: true,
    write: false,
    outfile: `${options.name}.cjs`,
    platform: "node",
    format: "cjs",
    target: "node22",
    // the workspace packages' sources (their `exports` condition), so no build of them is needed
    conditions: ["@stseval/source"],
    minify,
    legalComments: "eof",
    metafile: options.metafile === true,
    plugins: [deferPlugin, lazySegmenterPlugin],
    define: {
      [options.versionGlobal ?? "STSEVAL_BUNDLED_VERSION"]: JSON.stringify(pkg.version),
      // the scoring engine's version, for its signatures (@stseval/scoring's internal/version.ts)
      STSEVAL_SCORING_VERSION: JSON.stringify(scoringVersion),
      "import.meta.url": "__stseval_import_meta_url",
      ...options.define
    },
    logLevel: "silent"
  })
  const bodyOf = (result: esbuild.BuildResult & { readonly outputFiles: ReadonlyArray<esbuild.OutputFile> }): string => {
    for (const w of result.warnings) process.stderr.write(`bundle: ${w.text}\n`)
    const body = `(function (${PARAMS.join(", ")}) {${result.outputFiles[0].text.replace(/^#!.*\n/, "")}\n})`
    if (body.includes(COMMENT_END_ESCAPED)) throw new Error(`bundle: the program holds ${COMMENT_END_ESCAPED}, which the loader would turn into */`)
    return body
  }
  const [result, workerResult] = await Promise.all([build(options.entry), options.worker === undefined ? undefined : build(options.worker.entry)])
  const body = bodyOf(result)
  const worker = workerResult === undefined || options.worker === undefined ? undefined : { body: bodyOf(workerResult), workerData: options.worker.workerData, saveCacheKey: options.worker.saveCacheKey, ahead: options.worker.ahead }
  // the key of both code caches: a change to either body is a new program
  const hash = createHash("sha256").update(body).update(worker?.body ?? "").digest("hex").slice(0, 16)
  const draft = loader(options.name, body, hash, pkg.version, options.answersVersion === true, worker)
  const out = loader(options.name, body, hash, pkg.version, options.answersVersion === true, worker, sectionsOf(draft, worker !== undefined))
  if (out.length !== draft.length) throw new Error("bundle: writing the sections' places in moved them")
  fs.mkdirSync(path.dirname(path.resolve(options.outfile)), { recursive: true })
  fs.writeFileSync(options.outfile, out, { mode: 0o755 })
  fs.chmodSync(options.outfile, 0o755)
  if (result.metafile !== undefined) fs.writeFileSync(`${options.outfile}.meta.json`, JSON.stringify(result.metafile))
  if (workerResult?.metafile !== undefined) fs.writeFileSync(`${options.outfile}.worker.meta.json`, JSON.stringify(workerResult.metafile))
  return { outfile: options.outfile, bytes: Buffer.byteLength(out), version: pkg.version, hash }
}

/**
 * The command line of an app's `scripts/bundle.ts`: `[outfile] [--metafile]`, the outfile
 * defaulting to where the app's `bin` points; prints the size and the time taken.
 *
 * @since 0.2.0
 */
export const main = async (options: Omit<BundleOptions, "outfile" | "metafile">, defaultOutfile: string, argv: ReadonlyArray<string> = process.argv.slice(2)): Promise<BundleResult> => {
  const outfile = argv.find((a) => !a.startsWith("--")) ?? defaultOutfile
  const t0 = performance.now()
  const r = await bundle({ ...options, outfile, metafile: argv.includes("--metafile") })
  process.stdout.write(`${path.relative(process.cwd(), r.outfile)}: ${(r.bytes / 1e6).toFixed(2)} MB in ${Math.round(performance.now() - t0)} ms\n`)
  return r
}

/**
 * The `scripts/bundle.ts` of an app with nothing of its own to add (stseval-report,
 * stseval-watcher): the program `src/bin.ts` of the app's folder (the one above the script,
 * `scriptUrl`: its `import.meta.url`) and its scorer-only body `src/scorer.ts`, run by its scorer
 * threads with their own code cache (`scorer`: @stseval/scoring's `Isolation.scorerThread` keys),
 * so a scorer does not load the whole program again. Returns `bundle` into any outfile (the
 * tests') and `defaultOutfile`, `dist/<name>.mjs`, where the app's `bin` points; runs `main` when
 * the script is the process's entry.
 *
 * @example
 * ```ts
 * export const { bundle, defaultOutfile } = await appScript("stseval-report", import.meta.url, Isolation.scorerThread)
 * ```
 * @since 0.3.0
 */
export const appScript = async (
  name: string,
  scriptUrl: string,
  scorer: { readonly workerData: Readonly<Record<string, unknown>>; readonly saveCacheKey: string }
): Promise<{ readonly bundle: (options: { readonly outfile: string; readonly minify?: boolean }) => Promise<BundleResult>; readonly defaultOutfile: string }> => {
  const packageDir = path.resolve(path.dirname(fileURLToPath(scriptUrl)), "..")
  const app = { name, packageDir, entry: "src/bin.ts", worker: { entry: "src/scorer.ts", ...scorer } }
  const defaultOutfile = path.join(packageDir, "dist", `${name}.mjs`)
  if (process.argv[1] !== undefined && scriptUrl === pathToFileURL(process.argv[1]).href) await main(app, defaultOutfile)
  return { bundle: (options) => bundle({ ...app, ...options }), defaultOutfile }
}
