/**
 * The check-then-open race (issue 22): a run that is a regular file when it is checked and a link
 * to a server file when it is opened, swapped all the time by a helper (`renameat2` with
 * `RENAME_EXCHANGE`). `watch --once --hidden`, `score` and a folder run are scored over and over
 * while the helper swaps, and nothing of the target appears in any output: stdout, stderr, and
 * every file the watcher writes.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { startSwapping, swapUnavailable } from "@stseval/vitest-config/swap"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { examples, runCli } from "./support/cli.js"

const tmp = scratchDir("cli-race")

const gold = path.join(examples, "sick2014/SICK_test_annotated.txt")
const MARK = "SECRET"
// A server file shaped like a run, so that a parser reading it would quote its lines in errors.
const secret = `pair_ID\tentailment_judgment\trelatedness_score\n${Array.from({ length: 27 }, (_, i) => `${MARK}-${i}:x:0:0:root:/root:/bin/bash\tNEUTRAL\t3\n`).join("")}`
const innocent = fs.readFileSync(path.join(examples, "sick2014/submissions/Insight_run2.txt"), "utf8")

/** Every file under `dir`, as text. */
const allText = (dir: string): string =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir, { recursive: true, encoding: "utf8" })
        .map((rel) => path.join(dir, rel))
        .filter((f) => fs.statSync(f).isFile())
        .map((f) => fs.readFileSync(f, "utf8"))
        .join("\n")
    : ""

/** A submissions folder whose run `runPath` (relative) is swapped with a link to the secret; returns its stopper. */
const racingFolder = async (name: string, runPath: string) => {
  const base = path.join(tmp, name)
  const folder = path.join(base, "runs")
  fs.mkdirSync(path.dirname(path.join(folder, runPath)), { recursive: true })
  fs.copyFileSync(path.join(examples, "sick2014/submissions/Insight_run1primary.txt"), path.join(folder, "Insight_run1primary.txt"))
  fs.writeFileSync(path.join(folder, runPath), innocent)
  // the same size and times as the run: the watcher's signature (stat, links followed) then does
  // not change with the swaps, so the run settles and is read while the helper swaps
  fs.writeFileSync(path.join(base, "secret.txt"), secret.padEnd(innocent.length, "\n").slice(0, Math.max(secret.length, innocent.length)))
  expect(fs.statSync(path.join(base, "secret.txt")).size).toBe(innocent.length)
  const when = new Date("2026-01-01T00:00:00Z")
  fs.utimesSync(path.join(folder, runPath), when, when)
  fs.utimesSync(path.join(base, "secret.txt"), when, when)
  fs.symlinkSync(path.join(base, "secret.txt"), path.join(base, "decoy"))
  const swapper = await startSwapping(path.join(folder, runPath), path.join(base, "decoy"))
  return { base, folder, stop: swapper.stop }
}

/** Run `attempt` for about `ms` (at least `least` times); every output it returns must be free of the secret. */
const hammer = async (ms: number, least: number, attempt: (i: number) => Promise<string>) => {
  const until = Date.now() + ms
  let n = 0
  for (; n < least || Date.now() < until; n++) {
    const output = await attempt(n)
    expect(output).not.toContain(MARK)
    expect(output).not.toContain("/bin/bash")
  }
  return n
}

/** `hammer` on a folder racing (`racingFolder`), whose swapper must have swapped by the end; how many attempts. */
const whileRacing = async (name: string, runPath: string, ms: number, least: number, attempt: (i: number, race: { readonly base: string; readonly folder: string }) => Promise<string>) => {
  const race = await racingFolder(name, runPath)
  try {
    return await hammer(ms, least, (i) => attempt(i, race))
  } finally {
    expect(await race.stop()).toBeGreaterThan(0)
  }
}

/** stdout and stderr of the CLI given `args`, with --json every other attempt. */
const cliOutput = async (i: number, args: ReadonlyArray<string>) => {
  const r = await runCli([...args, ...(i % 2 === 0 ? ["--json"] : [])])
  return `${r.stdout}\n${r.stderr}`
}

const noSwap = swapUnavailable()
describe.skipIf(noSwap !== undefined)(`a link swapped in while runs are read (renameat2 RENAME_EXCHANGE in a loop)${noSwap !== undefined ? `: skipped, ${noSwap}` : ""}`, () => {
  it("watch --once --hidden: nothing of the target in any file the watcher writes, nor on stdout or stderr", async () => {
    const n = await whileRacing("watch", "Evil_run1primary.txt", 4000, 8, async (i, race) => {
      const out = path.join(race.base, `out-${i}`)
      const r = await runCli(["watch", "--task", "sick2014", "--gold", gold, "--once", "--hidden", "--out", out, race.folder])
      expect(r.code).toBe(0)
      const text = `${r.stdout}\n${r.stderr}\n${allText(out)}`
      fs.rmSync(out, { recursive: true, force: true })
      return text
    })
    expect(n).toBeGreaterThanOrEqual(8)
  })

  it("score (text and --json): nothing of the target in the output", async () => {
    await whileRacing("score", "Evil_run1primary.txt", 2500, 20, (i, race) => cliOutput(i, ["score", "--task", "sick2014", "--gold", gold, path.join(race.folder, "Evil_run1primary.txt")]))
  })

  it("a folder run (a file inside the run's folder swapped): nothing of the target in rank's output", async () => {
    await whileRacing("folder", "Evil_run2/run.txt", 2500, 20, (i, race) => cliOutput(i, ["rank", "--task", "sick2014", "--gold", gold, race.folder]))
  })
})
