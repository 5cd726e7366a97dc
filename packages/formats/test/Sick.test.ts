import * as fs from "node:fs"
import * as path from "node:path"
import * as v8 from "node:v8"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Issue, Sick, Text } from "@stseval/formats"

const here = path.dirname(fileURLToPath(import.meta.url))
const load = (name: string) => Text.decode(new Uint8Array(fs.readFileSync(path.join(here, "fixtures", "sick", name))), name).value
const fromString = (s: string) => Text.fromString(s, "x").value
const where = (issues: ReadonlyArray<Issue.Issue>) =>
  issues.map((i) => `${i.severity}:${i.code}${i.line !== undefined ? `@${i.line}` : ""}${i.field !== undefined ? `/${i.field}` : ""}`)
const isIssue = Schema.is(Issue.Issue)

describe("Sick.parseData", () => {
  it("reads a training file with both gold columns", () => {
    const p = Sick.parseData(load("SICK_train.tiny.txt"))
    expect(p.issues).toEqual([])
    expect(p.value.hasRelatedness).toBe(true)
    expect(p.value.hasEntailment).toBe(true)
    expect(p.value.fullRelease).toBe(false)
    expect(p.value.pairs.map((x) => [x.pairId, x.relatedness, x.entailment, x.line])).toEqual([
      ["1", 4.5, "NEUTRAL", 2],
      ["2", 3.2, "NEUTRAL", 3],
      ["3", 4.7, "ENTAILMENT", 4],
      ["5", 3.6, "CONTRADICTION", 5]
    ])
    expect(p.value.pairs[0].sentenceA).toBe("A group of kids is playing in a yard")
    expect(p.value.pairs[0].sentenceB).toBe("A group of boys in a yard is playing")
  })

  it("the test input names the gold columns in its header but its rows stop before them: no gold, no error", () => {
    const p = Sick.parseData(load("SICK_test.tiny.txt"))
    expect(p.issues).toEqual([])
    expect(p.value.hasRelatedness).toBe(false)
    expect(p.value.hasEntailment).toBe(false)
    expect(p.value.pairs.map((x) => [x.pairId, x.relatedness, x.entailment])).toEqual([
      ["6", undefined, undefined],
      ["7", undefined, undefined]
    ])
  })

  it("the 12-column full release: columns by name (entailment_label), SemEval_set kept", () => {
    const p = Sick.parseData(load("SICK.full.tiny.txt")) // CRLF, no final newline
    expect(p.issues).toEqual([])
    expect(p.value.fullRelease).toBe(true)
    expect(p.value.pairs.map((x) => [x.pairId, x.sentenceA, x.relatedness, x.entailment, x.set])).toEqual([
      ["1", "A group of kids", 4.5, "NEUTRAL", "TRAIN"],
      ["6", "There is no boy", 3.3, "NEUTRAL", "TEST"]
    ])
  })

  it("errors carry the line and field: duplicate ID, non-numeric score, unknown label, field count", () => {
    const p = Sick.parseData(load("SICK_bad.tiny.txt"))
    expect(where(p.issues)).toEqual([
      "error:duplicate-pair@3/pair_ID",
      "error:not-a-number@4/relatedness_score",
      "error:unknown-label@5/entailment_judgment",
      "error:field-count@6",
      "error:unknown-label@6/entailment_judgment"
    ])
    expect(p.issues[0].message).toContain("line 2")
    expect(p.issues[2].message).toContain("case-sensitive")
  })

  it("a header without the SICK column names is an error on line 1", () => {
    const p = Sick.parseData(load("SICK_badheader.tiny.txt"))
    expect(where(p.issues)).toEqual(["error:bad-header@1"])
    expect(p.value.pairs).toEqual([])
  })
})

describe("Sick.parseRun", () => {
  it("columns in any order, rows in any order", () => {
    const p = Sick.parseRun(load("Team_run1primary.txt")) // relatedness_score, pair_ID, entailment_judgment
    expect(p.issues).toEqual([])
    expect(p.value.header).toBe("present")
    expect(p.value.columns).toEqual(["relatedness_score", "pair_ID", "entailment_judgment"])
    expect(p.value.entailment).toBe("present")
    expect(p.value.relatedness).toBe("present")
    expect(p.value.rows).toEqual([
      { pairId: "7", entailment: "NEUTRAL", relatedness: 3.5, line: 2 },
      { pairId: "6", entailment: "ENTAILMENT", relatedness: 4.25, line: 3 }
    ])
  })

  it("a column of NA: that subtask is 'na', with an info issue naming the field", () => {
    const p = Sick.parseRun(load("Team_run2.txt"))
    expect(p.value.entailment).toBe("na")
    expect(p.value.relatedness).toBe("present")
    expect(where(p.issues)).toEqual(["info:na-column/entailment_judgment"])
    expect(p.value.rows.map((r) => r.entailment)).toEqual([undefined, undefined])
  })

  it("an empty column counts as NA too", () => {
    const p = Sick.parseRun(load("Team_run3.txt"))
    expect(p.value.relatedness).toBe("na")
    expect(p.value.entailment).toBe("present")
    expect(where(p.issues)).toEqual(["info:na-column/relatedness_score"])
  })

  it("an unnamed 4th column (the Insight *-raw.txt runs): field-count errors with line, no field", () => {
    const p = Sick.parseRun(load("Team_raw.txt"))
    const errors = p.issues.filter((i) => i.severity === "error")
    expect(where(errors)).toEqual(["error:field-count@2", "error:field-count@3"])
    expect(errors[0]).toMatchObject({ expected: "3 TAB-separated fields", found: "4 fields" })
    expect(errors.every((e) => e.field === undefined)).toBe(true)
  })

  it("a blank line in the middle (CRLF, as in an official primary run) is skipped as R's read.delim does, with a warning", () => {
    const p = Sick.parseRun(load("Team_blankline.txt"))
    expect(where(p.issues)).toEqual(["warning:blank-line@4"])
    expect(p.issues[0].message).toBe("line 4 is blank; it was skipped, as the official scorer (R's read.delim) skips blank lines")
    // the same rows as the run without the blank line (line numbers are the file's)
    const without = Sick.parseRun(fromString("pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t3.5\n2\tENTAILMENT\t4.25\n3\tCONTRADICTION\t1.75\n4\tNEUTRAL\t2\n"))
    expect(without.issues).toEqual([])
    expect(p.value.rows.map(({ line: _, ...r }) => r)).toEqual(without.value.rows.map(({ line: _, ...r }) => r))
    expect(p.value.rows.map((r) => r.line)).toEqual([2, 3, 5, 6])
    expect(p.value.relatedness).toBe("present")
    expect(p.value.entailment).toBe("present")
  })

  it.each([
    ["blank lines before the header are skipped too", "\npair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t3\n", "warning:blank-line@1", { pairId: "1", entailment: "NEUTRAL", relatedness: 3, line: 3 }],
    ["a header with the official names in another case is read", "Pair_ID\tEntailment_Judgment\trelatedness_score\n6\tNEUTRAL\t3\n", "warning:bad-header@1", { pairId: "6", entailment: "NEUTRAL", relatedness: 3, line: 2 }]
  ])("%s, with a warning", (_, text, warning, row) => {
    const p = Sick.parseRun(fromString(text))
    expect(where(p.issues)).toEqual([warning])
    expect(p.value.rows).toEqual([row])
  })

  it("a line of spaces is not blank to R (it is a row)", () => {
    const spaces = Sick.parseRun(fromString("pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t3\n  \n2\tNEUTRAL\t4\n"))
    expect(Issue.hasErrors(spaces.issues)).toBe(true)
  })

  it("a SICK data file (gold) with a blank line: skipped the same way", () => {
    const p = Sick.parseData(fromString("pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n1\ta\tb\t3\tNEUTRAL\n\n2\tc\td\t4\tENTAILMENT\n"))
    expect(where(p.issues)).toEqual(["warning:blank-line@3"])
    expect(p.value.pairs.map((x) => [x.pairId, x.line])).toEqual([["1", 2], ["2", 4]])
  })

  it("a headerless id TAB LABEL file is an error by default (the official scorer rejects it), with the header line to add", () => {
    const p = Sick.parseRun(load("Team_headerless.run"))
    expect(p.value.header).toBe("inferred")
    expect(where(p.issues)).toEqual(["error:missing-header@1"])
    expect(p.issues[0].message).toBe(
      "the file has no header line, and the official scorer rejects such a file; add this line at the top (TAB-separated): pair_ID<TAB>entailment_judgment (its columns read as pair ID, entailment label); or score it leniently (--lenient)"
    )
    expect(p.issues[0]).toMatchObject({ expected: "pair_ID\tentailment_judgment", found: "7\tENTAILMENT" })
  })

  it("lenient: a headerless file whose columns are unambiguous is read, with a warning saying so", () => {
    const p = Sick.parseRun(load("Team_headerless.run"), { lenient: true })
    expect(p.value.header).toBe("inferred")
    expect(p.value.columns).toEqual(["pair_ID", "entailment_judgment"])
    expect(p.value.entailment).toBe("present")
    expect(p.value.relatedness).toBe("absent")
    expect(where(p.issues)).toEqual(["warning:missing-header@1"])
    expect(p.issues[0].message).toContain("read leniently")
    expect(p.issues[0].message).toContain("the official scorer rejects such a file")
    // the first line is data, not a header
    expect(p.value.rows).toEqual([
      { pairId: "7", entailment: "ENTAILMENT", relatedness: undefined, line: 1 },
      { pairId: "6", entailment: "NEUTRAL", relatedness: undefined, line: 2 }
    ])
  })

  it("lenient does not guess: columns that cannot all be recognised stay an error", () => {
    const p = Sick.parseRun(fromString("7\tENTAILMENT\tNEUTRAL\n"), { lenient: true })
    expect(Issue.hasErrors(p.issues)).toBe(true)
  })

  it("a headerless file with a numeric third value: that is the relatedness", () => {
    const p = Sick.parseRun(load("Team_headerless3.run"), { lenient: true })
    expect(p.value.columns).toEqual(["pair_ID", "entailment_judgment", "relatedness_score"])
    expect(p.value.relatedness).toBe("present")
    expect(p.value.rows.map((r) => r.relatedness)).toEqual([4.5, 2])
  })

  it("labels are case-sensitive: lower-case 'entailment' is an unknown label for that subtask only", () => {
    const p = Sick.parseRun(load("Team_lowercase.txt"))
    expect(where(p.issues)).toEqual(["error:unknown-label@2/entailment_judgment"])
    expect(p.issues[0].found).toBe("entailment")
    expect(p.value.rows[0].entailment).toBe("entailment")
  })

  it("NaN, Infinity and words as relatedness are errors on the relatedness field; 7.5 is not the parser's concern", () => {
    const p = Sick.parseRun(load("Team_badscore.txt"))
    expect(where(p.issues)).toEqual([
      "error:non-finite@2/relatedness_score",
      "error:non-finite@3/relatedness_score",
      "error:not-a-number@4/relatedness_score"
    ])
    expect(p.value.rows.map((r) => r.relatedness)).toEqual([NaN, NaN, NaN, 7.5])
  })

  it("a header naming another column is a whole-file error", () => {
    const p = Sick.parseRun(load("Team_wrongheader.txt"))
    expect(where(p.issues)).toEqual(["error:bad-header@1"])
    expect(p.issues[0].message).toContain('"confidence"')
  })

  it("a header missing one subtask's column: an error for that subtask only", () => {
    const p = Sick.parseRun(fromString("pair_ID\tentailment_judgment\n6\tNEUTRAL\n"))
    expect(where(p.issues)).toEqual(["error:bad-header@1/relatedness_score"])
    expect(p.value.relatedness).toBe("absent")
    expect(p.value.entailment).toBe("present")
  })

  it("an unreadable header that is not data either is a whole-file error", () => {
    const p = Sick.parseRun(fromString("id\tlabel\tscore\n6\tNEUTRAL\t3\n"))
    expect(where(p.issues)).toEqual(["error:bad-header@1"])
    expect(p.value.entailment).toBe("absent")
  })

  it("a pair ID given twice is a whole-file error", () => {
    const p = Sick.parseRun(load("Team_dup.txt"))
    expect(where(p.issues)).toEqual(["error:duplicate-pair@3"])
  })

  it("some NA among labels: each NA is an unknown label", () => {
    const p = Sick.parseRun(fromString("pair_ID\tentailment_judgment\trelatedness_score\n6\tNA\t3\n7\tNEUTRAL\t3\n"))
    expect(p.value.entailment).toBe("present")
    expect(where(p.issues)).toEqual(["error:unknown-label@2/entailment_judgment"])
  })
})

// ---- round trips and robustness -------------------------------------------------------------

const text = fc
  .string({ unit: "binary", minLength: 1, maxLength: 30 })
  .map((s) => ["\t", "\r", "\n", "\u0000"].reduce((acc, c) => acc.replaceAll(c, " "), s))
  .filter((s) => !Text.isBlank(s))
const pairId = fc.integer({ min: 1, max: 1_000_000 }).map(String)
const score = fc.double({ noNaN: true, noDefaultInfinity: true })
const label = fc.constantFrom(...Sick.ENTAILMENT_LABELS)

describe("Sick writers round-trip", () => {
  it("parseData(writeData(pairs)) gives the pairs back, with or without gold and set", () => {
    const pairs = fc.tuple(fc.uniqueArray(pairId, { minLength: 1, maxLength: 10 }), fc.boolean(), fc.boolean(), fc.boolean()).chain(([ids, rel, ent, set]) =>
      fc.tuple(
        ...ids.map((id) =>
          fc.record({
            pairId: fc.constant(id),
            sentenceA: text,
            sentenceB: text,
            relatedness: rel ? score : fc.constant(undefined),
            entailment: ent ? label : fc.constant(undefined),
            set: set ? fc.constantFrom("TRAIN", "TRIAL", "TEST") : fc.constant(undefined)
          })
        )
      )
    )
    fc.assert(
      fc.property(pairs, (ps) => {
        const withLines = ps.map((p, i) => ({ ...p, line: i + 2 }))
        const parsed = Sick.parseData(Text.fromString(Sick.writeData(withLines), "x").value)
        expect(parsed.issues).toEqual([])
        expect(parsed.value.pairs).toEqual(withLines)
        expect(parsed.value.hasRelatedness).toBe(ps[0].relatedness !== undefined)
        expect(parsed.value.hasEntailment).toBe(ps[0].entailment !== undefined)
      })
    )
  })

  it("parseRun(writeRun(rows)) gives the rows back; an all-undefined column becomes 'na'", () => {
    const rows = fc.tuple(fc.uniqueArray(pairId, { minLength: 1, maxLength: 10 }), fc.boolean(), fc.boolean()).chain(([ids, rel, ent]) =>
      fc.tuple(
        ...ids.map((id) =>
          fc.record({
            pairId: fc.constant(id),
            entailment: ent ? label.map((l): string => l) : fc.constant(undefined),
            relatedness: rel ? score : fc.constant(undefined)
          })
        )
      ).map((rs) => ({ rs, rel, ent }))
    )
    fc.assert(
      fc.property(rows, ({ rs, rel, ent }) => {
        const parsed = Sick.parseRun(Text.fromString(Sick.writeRun(rs), "x").value)
        expect(Issue.hasErrors(parsed.issues)).toBe(false)
        expect(parsed.value.rows).toEqual(rs.map((r, i) => ({ ...r, line: i + 2 })))
        expect(parsed.value.relatedness).toBe(rel ? "present" : "na")
        expect(parsed.value.entailment).toBe(ent ? "present" : "na")
      })
    )
  })
})

describe("Sick parsers on arbitrary text", () => {
  it("a hostile header (a million columns) and 100,000 bad rows: answered quickly, issues capped", () => {
    const header = "pair_ID\tx".repeat(500_000)
    const rows = "1\tNEUTRAL\tfour\n".repeat(100_000)
    // the CPU time this thread spends, not the wall time: what other processes on a loaded machine
    // take from it does not count, a parser that is not linear does
    const started = process.threadCpuUsage()
    for (const first of [header, "pair_ID\tentailment_judgment\trelatedness_score", "1" + "\t3".repeat(1_000_000)]) {
      const t = Text.fromString(`${first}\n${rows}`, "x").value
      const data = Sick.parseData(t)
      const run = Sick.parseRun(t)
      expect(data.issues.length).toBeLessThan(400)
      expect(run.issues.length).toBeLessThan(400)
      expect(Issue.hasErrors(run.issues)).toBe(true)
      expect(run.issues.every((i) => i.message.length < 1000)).toBe(true)
    }
    const used = process.threadCpuUsage(started)
    expect((used.user + used.system) / 1000).toBeLessThan(10_000)
  })


  it("never throw, and give typed issues", () => {
    const field = fc.oneof(fc.string({ unit: "binary", maxLength: 8 }), fc.constantFrom("pair_ID", "entailment_judgment", "relatedness_score", "NA", "NEUTRAL", "3.5", "12", ""))
    const line = fc.array(field, { maxLength: 6 }).map((fs) => fs.join("\t"))
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), (lines) => {
        const t = Text.fromString(lines.join("\n"), "x").value
        for (const p of [Sick.parseData(t), Sick.parseRun(t)]) expect(p.issues.every(isIssue)).toBe(true)
      }),
      { numRuns: 400 }
    )
  })
})

describe("entailment labels keep nothing of the file alive", () => {
  // V8 keeps a substring of 13 characters or more ("CONTRADICTION") as a view into the string it
  // was cut from: a label read from a line would hold the run's whole decoded text for as long as
  // a scored run keeps its aligned labels (1,000 SICK runs: 270 MB more at the peak). The parsers
  // give the constants of ENTAILMENT_LABELS instead; V8's own identity check says so.
  v8.setFlagsFromString("--allow-natives-syntax")
  // a V8 intrinsic is only reachable from code compiled after the flag is set, hence a Function
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const sameObject = new Function("a", "b", "return %IsSameHeapObject(a, b)") as (a: string, b: string) => boolean
  const text = (header: string, row: (i: number, label: string) => string) =>
    new TextEncoder().encode(`${header}\n${Array.from({ length: 30 }, (_, i) => row(i + 1, Sick.ENTAILMENT_LABELS[i % 3])).join("\n")}\n`)
  const constant = (label: string | undefined) => Sick.ENTAILMENT_LABELS.find((l) => l === label)!

  it("a run's labels are the constants, not substrings of its lines", () => {
    const bytes = text("pair_ID\tentailment_judgment\trelatedness_score", (i, label) => `${i}\t${label}\t3.5`)
    const p = Sick.parseRun(Text.decode(bytes, "run.txt").value)
    expect(p.issues).toEqual([])
    expect(p.value.rows.map((r) => r.entailment)).toEqual(Array.from({ length: 30 }, (_, i) => Sick.ENTAILMENT_LABELS[i % 3]))
    for (const r of p.value.rows) expect(sameObject(r.entailment!, constant(r.entailment)), r.entailment).toBe(true)
  })

  it("so are the gold's", () => {
    const bytes = text("pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment", (i, label) => `${i}\tA man is here.\tA woman is there.\t3.5\t${label}`)
    const p = Sick.parseData(Text.decode(bytes, "gold.txt").value)
    expect(p.issues).toEqual([])
    for (const pair of p.value.pairs) expect(sameObject(pair.entailment!, constant(pair.entailment)), pair.entailment).toBe(true)
  })
})

describe("hints for the common mistakes (issue 24)", () => {
  it("';' or spaces where a TAB is expected, and a decimal comma", () => {
    const run = (s: string) => Sick.parseRun(Text.fromString(s, "Team_run1.txt").value).issues.map((i) => i.message)
    expect(run("pair_ID;entailment_judgment;relatedness_score\n1;NEUTRAL;3.2\n")[0]).toMatch(/; fields must be separated by a TAB, not ";"$/)
    expect(run("pair_ID  entailment_judgment  relatedness_score\n")[0]).toMatch(/; fields must be separated by a TAB, not spaces$/)
    expect(run("pair_ID\tentailment_judgment\trelatedness_score\n1 NEUTRAL 3.2\n")[0]).toBe("line 2 has 1 fields, the header names 3; fields must be separated by a TAB, not spaces")
    expect(run("pair_ID\tentailment_judgment\trelatedness_score\n1\tNEUTRAL\t3,2\n")).toContain('the relatedness score on line 2 is not a number; use "." as the decimal point')
  })
})
