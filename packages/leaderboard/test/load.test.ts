/**
 * The load test of the issue, bounded: 500 runs dropped into the watched folder at once, then 1,000
 * rapid overwrites, with the real engine and the real file system. It shares its code with the
 * benchmark (bench/watcher.bench.ts), which throws when a run is missing from the final leaderboard
 * or a figure or rank differs from a one-shot `Engine.score` of the same folder (what
 * `stseval rank` prints). The timings it returns are not asserted: they belong in `pnpm bench`.
 */
import { describe, expect, it } from "vitest"
import { run } from "../bench/watcher.bench.js"

describe("load", () => {
  it("500 runs at once, then 1,000 rapid updates: nothing lost, every final score equal to a one-shot rank", async () => {
    const rows = await run({ runCount: 500, updateCount: 1000 })
    const final = rows.find((r) => r.name === "final state")
    expect(final).toMatchObject({ runs: 500, equalsOneShot: "yes" })
    expect(rows.find((r) => r.name === "1000 rapid updates")).toMatchObject({ updates: 1000 })
  }, 240_000)
})
