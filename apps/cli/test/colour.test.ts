/**
 * Colour is decided once per command run from the Environment service and whether stdout is a
 * terminal (`Main.runInProcess`'s `isTTY`, `bin.ts`'s `process.stdout.isTTY`), never from the
 * process's environment at import time: an in-process run with NO_COLOR in its own environment gets
 * no colour, whatever the test process's environment says.
 */
import { afterEach, describe, expect, it } from "vitest"
import { runInProcess } from "../src/Main.js"

const BOLD = "\u001b[1m"
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/

const run = async (args: ReadonlyArray<string>, env: Record<string, string>, isTTY: boolean) => {
  let stdout = ""
  let stderr = ""
  const code = await runInProcess(args, { stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), env, isTTY })
  return { code, stdout, stderr }
}

const saved = { NO_COLOR: process.env.NO_COLOR, FORCE_COLOR: process.env.FORCE_COLOR }
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k]
    else process.env[k] = v
  }
})

describe("colour from the Environment service", () => {
  it("a terminal gets colour; NO_COLOR in the run's environment turns it off; TERM=dumb too", async () => {
    expect((await run(["tasks"], {}, true)).stdout).toContain(BOLD)
    expect((await run(["tasks"], { NO_COLOR: "1" }, true)).stdout).not.toMatch(ANSI)
    expect((await run(["tasks"], { TERM: "dumb" }, true)).stdout).not.toMatch(ANSI)
    // an empty NO_COLOR does not count (no-color.org)
    expect((await run(["tasks"], { NO_COLOR: "" }, true)).stdout).toContain(BOLD)
  })

  it("a pipe gets none, unless FORCE_COLOR; NO_COLOR wins over FORCE_COLOR", async () => {
    expect((await run(["tasks"], {}, false)).stdout).not.toMatch(ANSI)
    expect((await run(["tasks"], { FORCE_COLOR: "1" }, false)).stdout).toContain(BOLD)
    expect((await run(["tasks"], { FORCE_COLOR: "0" }, false)).stdout).not.toMatch(ANSI)
    expect((await run(["tasks"], { FORCE_COLOR: "1", NO_COLOR: "1" }, false)).stdout).not.toMatch(ANSI)
  })

  it("the test process's own environment is never read: the run's environment alone decides, run by run", async () => {
    process.env.NO_COLOR = "1"
    expect((await run(["tasks"], {}, true)).stdout).toContain(BOLD)
    delete process.env.NO_COLOR
    process.env.FORCE_COLOR = "1"
    expect((await run(["tasks"], {}, false)).stdout).not.toMatch(ANSI)
    expect((await run(["tasks"], { NO_COLOR: "1" }, true)).stdout).not.toMatch(ANSI)
  })

  it("a usage error is red on a terminal, plain with NO_COLOR", async () => {
    const red = await run(["score", "--task", "no-such-edition", "x"], {}, true)
    expect(red.code).toBe(2)
    expect(red.stderr).toContain("\u001b[31merror:\u001b[39m")
    const plain = await run(["score", "--task", "no-such-edition", "x"], { NO_COLOR: "1" }, true)
    expect(plain.stderr).toMatch(/^error: /m)
    expect(plain.stderr).not.toMatch(ANSI)
  })
})
