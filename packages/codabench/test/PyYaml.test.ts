import { describe, expect, it } from "vitest"
import { CompetitionYaml } from "../src/index.js"
import * as PyYaml from "../src/internal/pyyaml.js"

// internal/pyyaml.ts: what PyYAML refuses is a LoadError (a Schema.TaggedError) with the parser's
// message, and parseAsCodabench turns exactly that, and nothing else, into `{ error }`.
describe("PyYaml.safeLoad", () => {
  const thrown = (text: string): unknown => {
    try {
      PyYaml.safeLoad(text)
    } catch (e) {
      return e
    }
    return undefined
  }

  it("a text PyYAML would not load throws a tagged LoadError with the parser's message", () => {
    const error = thrown("a: [1, 2\n")
    expect(error).toBeInstanceOf(PyYaml.LoadError)
    expect(error).toMatchObject({ _tag: "LoadError" })
    expect((error as Error).message).toMatch(/flow sequence|Missing|expected/i)
    expect(CompetitionYaml.parseAsCodabench("a: [1, 2\n")).toEqual({ error: (error as Error).message })
  })

  it("a date outside the calendar is a LoadError naming it", () => {
    const error = thrown("end: 2027-02-30\n")
    expect(error).toMatchObject({ _tag: "LoadError" })
    expect((error as Error).message).toContain("2027-02-30: day is out of range for month")
  })

  it("aliases expanding past the budget are a LoadError, not an untagged throw", () => {
    const anchors = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for (let i = 1; i < 12; i++) anchors.push(`a${i}: &a${i} [${Array(10).fill(i === 1 ? "*a" : `*a${i - 1}`).join(", ")}]`)
    expect(thrown(`${anchors.join("\n")}\n`)).toMatchObject({ _tag: "LoadError" })
  })

  it("a loadable text loads", () => {
    expect(PyYaml.safeLoad("a: yes\nb: 0755\n")).toEqual({ a: true, b: 493 })
  })
})
