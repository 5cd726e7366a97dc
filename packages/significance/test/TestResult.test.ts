// significance's input error is the codebase's idiom (issue 33): a Schema.TaggedError, returned as
// a value by the synchronous tests and yieldable as a failure in an Effect.
import { Cause, Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { Independent, TestResult } from "../src/index.js"

describe("TestResult.InvalidInput", () => {
  it("is a tagged error with its fields and message, returned by a test given bad input", () => {
    const result = Independent.fisher1925({ r1: 1.2, r2: 0.5, n1: 100, n2: 100 })
    if (!TestResult.isInvalid(result)) return expect.fail("1.2 is no correlation")
    expect(result).toBeInstanceOf(Error)
    expect(result).toMatchObject({ _tag: "InvalidInput", field: "r1", expected: "a correlation strictly between -1 and 1", found: "1.2" })
    expect(result.message).toBe("r1: expected a correlation strictly between -1 and 1, found 1.2")
  })

  it("fails an Effect when yielded, as every other error of the codebase", () => {
    const exit = Effect.runSyncExit(
      Effect.gen(function* () {
        const result = Independent.fisher1925({ r1: 0.7, r2: 0.6, n1: 2, n2: 100 })
        if (TestResult.isInvalid(result)) return yield* result
        return result.pValue
      })
    )
    expect(Exit.isFailure(exit)).toBe(true)
    if (Exit.isFailure(exit)) expect(Cause.squash(exit.cause)).toMatchObject({ _tag: "InvalidInput", field: "n1" })
  })
})
