/**
 * What the apps' tests assert of a built file's scorer-only body (`Bundle.bodies`'s): both bodies
 * are there, a text only the program holds (`programOnly`: one of its commands or pages) is not in
 * the scorer's, and the scorer's body is under `under` times the program's.
 */
import { spawnSync } from "node:child_process"
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir, userInfo } from "node:os"
import * as path from "node:path"
import { expect } from "vitest"

export const expectScorerBody = ({ program = "", worker = "" }, { programOnly, under }) => {
  expect(worker, "the scorer-only body").not.toBe("")
  expect(program, "the program's body").not.toBe("")
  expect(program).toContain(programOnly)
  expect(worker).not.toContain(programOnly)
  expect(worker.length).toBeLessThan(program.length * under)
  return { program, worker }
}

/**
 * Whether V8 rejects the code cache `cacheFile` for each body (`{ program, worker }`), asked of a
 * fresh `node`: V8 checks a cache against the flags of the process that reads it, and a test file
 * run before in the same Vitest process may have changed them (formats' Sick.test sets
 * `--allow-natives-syntax`; on Node 22 that changes V8's flag hash, and every cache is rejected).
 */
export const cacheRejected = ({ program = "", worker = "" }, cacheFile) => {
  const dir = mkdtempSync(path.join(tmpdir(), "stseval-cache-check-"))
  try {
    writeFileSync(path.join(dir, "program.js"), program)
    writeFileSync(path.join(dir, "worker.js"), worker)
    const check = `const vm = require("node:vm"), fs = require("node:fs")
const [cache, worker, program] = process.argv.slice(1)
const cachedData = fs.readFileSync(cache)
const rejected = (file) => new vm.Script(fs.readFileSync(file, "utf8"), { cachedData }).cachedDataRejected
process.stdout.write(JSON.stringify({ worker: rejected(worker), program: rejected(program) }))`
    const r = spawnSync(process.execPath, ["-e", check, cacheFile, path.join(dir, "worker.js"), path.join(dir, "program.js")], { encoding: "utf8" })
    if (r.status !== 0) throw new Error(`the cache check failed: ${r.stderr}`)
    return JSON.parse(r.stdout)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The code cache a scorer thread saved under `tmp` (what the executable took for its temporary
 * folder: the loader's `stseval-<uid>` folder in it), the first whose name `pattern` matches.
 */
export const scorerCache = (tmp, pattern = /-worker-.*\.v8$/) => {
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined
  const dir = path.join(tmp, `stseval-${uid ?? userInfo().username}`)
  const cache = readdirSync(dir).find((f) => pattern.test(f))
  expect(cache, `a scorer's code cache in ${dir}`).toBeDefined()
  return path.join(dir, cache)
}
