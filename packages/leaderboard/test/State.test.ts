/**
 * The watcher's state file (`State.decode`): a state this version writes is read back as written;
 * anything else (another format version, a run missing a field, text that is not JSON, a value of
 * any size in the wrong place) is `Invalid` with a one-line reason of bounded length, never thrown,
 * so that a watcher starts afresh instead of stopping.
 */
import { Issue } from "@stseval/formats"
import { describe, expect, it } from "vitest"
import { State } from "../src/index.js"

const run: State.StateRun = {
  key: "k1",
  hash: "h1",
  kind: "file",
  team: "ECNU",
  run: 1,
  primary: true,
  late: false,
  corrected: false,
  submittedAt: 1_700_000_000_000,
  firstSeen: 1_700_000_000_500,
  sig: "120:1700000000000"
}
const state: State.StateFile = { format: State.FORMAT, task: "sts2017", signature: "sig", runs: { "ECNU_run1.txt": run } }

const invalidReason = (text: string): string => {
  const decoded = State.decode(text)
  if (decoded._tag !== "Invalid") throw new Error(`expected Invalid, got ${JSON.stringify(decoded)}`)
  return decoded.reason
}

describe("State.decode", () => {
  it("reads back a state as written, optional fields included", () => {
    const full: State.StateFile = { ...state, runs: { ...state.runs, "Late_run2.zip": { ...run, kind: "zip", run: null, late: true, postDeadline: true, description: "a late run", identityUnknown: true } } }
    expect(State.decode(JSON.stringify(full))).toEqual({ _tag: "Ok", state: full })
  })

  it("refuses another format version (a state of an older watcher is not read as this one's)", () => {
    expect(invalidReason(JSON.stringify({ ...state, format: "stseval/watch-state@1" }))).toContain("stseval/watch-state@2")
  })

  it("refuses a run without one of its fields, naming the field", () => {
    const { sig: _sig, ...noSig } = run
    expect(invalidReason(JSON.stringify({ ...state, runs: { "ECNU_run1.txt": noSig } }))).toContain("sig")
  })

  it("refuses a run kind it does not know, and text that is not JSON", () => {
    expect(State.decode(JSON.stringify({ ...state, runs: { "x.tar": { ...run, kind: "tar" } } }))._tag).toBe("Invalid")
    expect(State.decode("{ not json")._tag).toBe("Invalid")
    expect(State.decode("")._tag).toBe("Invalid")
  })

  it("gives one line of bounded length, however large the refused value", () => {
    const reason = invalidReason(JSON.stringify({ ...state, task: "x".repeat(100_000), runs: { "ECNU_run1.txt": { ...run, team: 7 } } }))
    expect(reason).not.toContain("\n")
    expect(reason.length).toBeLessThanOrEqual(Issue.MAX_MESSAGE_LENGTH)
    const huge = invalidReason(JSON.stringify({ ...state, signature: ["y".repeat(1_000_000)] }))
    expect(huge.length).toBeLessThanOrEqual(Issue.MAX_MESSAGE_LENGTH)
  })
})
