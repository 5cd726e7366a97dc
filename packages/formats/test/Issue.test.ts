/**
 * Issues as people and programs read them: true totals when a list is capped, the bad value in the
 * text form, no terminal control characters in it.
 */
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Issue, Sick, Text } from "@stseval/formats"

const header = "pair_ID\tentailment_judgment\trelatedness_score\n"

describe("capped issue lists keep the true count", () => {
  it("4927 bad lines: 50 listed, one closing issue standing for the other 4877; count() says 4927", () => {
    const rows = Array.from({ length: 4927 }, (_, i) => `${i + 1}\tNEUTRAL\tfour\n`).join("")
    const parsed = Sick.parseRun(Text.fromString(header + rows, "Team_run1.txt").value)
    const errors = parsed.issues.filter((i) => i.severity === "error")
    expect(errors).toHaveLength(51)
    const closing = errors[50]
    expect(closing.count).toBe(4877)
    expect(closing.message).toBe("4877 more lines with the same problem (not-a-number, relatedness_score) not listed")
    expect(Issue.count(errors)).toBe(4927)
    expect(Issue.count(parsed.issues, (i) => i.severity === "error" && i.field === Sick.RELATEDNESS)).toBe(4927)
    // an issue without a count stands for one finding
    expect(errors[0].count).toBeUndefined()
  })

  it("the closing issue keeps what the listed ones have in common (expected), and validates against the schema", () => {
    const rows = Array.from({ length: 60 }, (_, i) => `${i + 1}\tNEUTRAL\tfour\n`).join("")
    const closing = Sick.parseRun(Text.fromString(header + rows, "x").value).issues.at(-1)!
    expect(closing).toMatchObject({ severity: "error", code: "not-a-number", field: "relatedness_score", count: 10, expected: "a number" })
    expect(Schema.is(Issue.Issue)(closing)).toBe(true)
  })
})

describe("Issue.format, the text form", () => {
  it("shows the bad value found, as the JSON has it", () => {
    const issue = Issue.error("not-a-number", "Team_run1.txt", "the relatedness score on line 3 is not a number", { line: 3, expected: "a number", found: "four" })
    expect(Issue.format(issue)).toBe('Team_run1.txt:3: error: the relatedness score on line 3 is not a number (expected a number, found "four")')
  })

  it("does not repeat a value the message already quotes", () => {
    const issue = Issue.error("unknown-label", "x", 'the entailment label "NEUTRL" on line 2 is not one of ENTAILMENT, CONTRADICTION, NEUTRAL', { line: 2, expected: "ENTAILMENT, CONTRADICTION, NEUTRAL", found: "NEUTRL" })
    expect(Issue.format(issue)).toBe('x:2: error: the entailment label "NEUTRL" on line 2 is not one of ENTAILMENT, CONTRADICTION, NEUTRAL')
  })

  it("prints control characters (terminal escapes) escaped, never raw", () => {
    const issue = Issue.error("unknown-label", "x", 'the entailment label "\u001b]0;pwned\u0007\u001b[2J" on line 2 is not a label', { line: 2, found: "\u001b[2J" })
    const text = Issue.format(issue)
    expect([...text].some((c) => c.charCodeAt(0) < 0x20 || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f))).toBe(false)
    expect(text).toContain("\\x1b]0;pwned\\x07\\x1b[2J")
  })
})

describe("an issue made and the same issue decoded through the Schema give the same JSON", () => {
  // every subset of the optional fields, with each constructor: the live leaderboard writes issues
  // scored now beside issues decoded from its cache, and the same folder must give the same bytes
  const optional = { line: 12, field: "relatedness_score", expected: "a number", found: "four", count: 3 } as const
  const keys = Object.keys(optional) as Array<keyof typeof optional>
  const subsets = Array.from({ length: 1 << keys.length }, (_, mask) => Object.fromEntries(keys.filter((_, b) => (mask >> b) & 1).map((k) => [k, optional[k]])))
  const makers = [Issue.error, Issue.warning, Issue.info]

  it("byte-identical after a JSON round trip through Issue.Issue, for every constructor and every set of optional fields", () => {
    for (const make of makers) {
      for (const where of subsets) {
        const made = make("not-a-number", "Team_run1.txt", "relatedness_score is not a number", where)
        const text = JSON.stringify(made)
        const decoded = Schema.decodeUnknownSync(Issue.Issue)(JSON.parse(text))
        expect(JSON.stringify(decoded)).toBe(text)
        // and an array of them, as the outputs hold them
        expect(JSON.stringify(Schema.decodeUnknownSync(Schema.Array(Issue.Issue))(JSON.parse(JSON.stringify([made, made]))))).toBe(JSON.stringify([made, made]))
      }
    }
  })

  it("the constructors write the Schema's fields in the Schema's order", () => {
    const order = Object.keys(Issue.Issue.fields)
    for (const where of subsets) {
      const made = Issue.make("warning", "bad-csv", "pred_eng.csv", "a message", where)
      expect(Object.keys(made)).toEqual(order.filter((k) => k in made))
    }
  })
})

describe("bounds on what an issue and a run's issues hold (issue 31)", () => {
  it("cut keeps the start and the end around a marker counting what was left out, within the length", () => {
    const name = `${"a".repeat(1000)}${"b".repeat(1000)}.txt`
    const cut = Issue.cut(name, 100)
    expect(cut.length).toBeLessThanOrEqual(100)
    const m = /^(a+)…\((\d+) characters cut\)…(b+\.txt)$/.exec(cut)!
    // what is kept and what is counted make the whole name again
    expect(m[1].length + Number(m[2]) + m[3].length).toBe(name.length)
    expect(Issue.cut("short", 100)).toBe("short")
    const made = Issue.warning("unknown-file", `run.zip!${name}`, `${name} matches no dataset; it is ignored`)
    expect(made.file.length).toBeLessThanOrEqual(Issue.MAX_FILE_LENGTH)
    expect(made.message.length).toBeLessThanOrEqual(Issue.MAX_MESSAGE_LENGTH)
    expect(made.message.endsWith(".txt matches no dataset; it is ignored")).toBe(true)
  })

  it("capRun lists at most MAX_RUN_ISSUES, errors and each kind's first before the rest, and counts every finding", () => {
    const warnings = Array.from({ length: 150 }, (_, i) => Issue.warning("unknown-file", `r.zip!x${i}`, "ignored"))
    const infos = [Issue.info("crlf", "r.zip!a", "CRLF")]
    // an error after 150 warnings, and one that already stands for 7 findings
    const errors = [Issue.error("not-a-number", "r.zip!a", "bad"), Issue.error("not-a-number", "r.zip!a", "7 more lines", { count: 7 })]
    const kept = Issue.capRun([...warnings, ...infos, ...errors], "r.zip")
    const listed = kept.filter((i) => i.file !== "r.zip")
    expect(listed).toHaveLength(Issue.MAX_RUN_ISSUES)
    expect(listed.filter((i) => i.severity === "error")).toHaveLength(2)
    expect(listed.filter((i) => i.severity === "info")).toHaveLength(1)
    // 100 - 2 errors - 1 info = 97 warnings listed, 53 counted in one closing issue
    const closing = kept.filter((i) => i.file === "r.zip")
    expect(closing).toEqual([Issue.warning("unknown-file", "r.zip", "53 more warnings (unknown-file) not listed: a run lists at most 100 issues", { count: 53 })])
    expect(Issue.count(kept)).toBe(150 + 1 + 1 + 7)
    // listed in their order
    expect(kept.indexOf(errors[0])).toBeGreaterThan(kept.indexOf(warnings[0]))
    const few = [Issue.error("bom", "a", "x")]
    expect(Issue.capRun(few, "a")).toBe(few)
  })
})
