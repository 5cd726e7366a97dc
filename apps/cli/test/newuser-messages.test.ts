/**
 * What a new participant hits and what the messages say (issue 32): an empty run folder, a JSON
 * Lines prediction written as a string, reversed-scale predictions, an STS-B run with a header
 * line, no gold and no data store, SemRel languages no run entered.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { examples, runCli } from "./support/cli.js"

let work: string
const sickGold = path.join(examples, "sick2014/SICK_test_annotated.txt")

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-cli-newuser-messages-"))
})

afterAll(() => {
  if (work !== undefined) fs.rmSync(work, { recursive: true, force: true })
})

describe("an empty run folder", () => {
  it("validate and score say there is nothing to score, naming the folder, and exit 1 (text and JSON)", async () => {
    const empty = path.join(work, "empty")
    fs.mkdirSync(empty)
    for (const command of ["validate", "score"]) {
      const text = await runCli([command, "--task", "sick2014", "--gold", sickGold, empty])
      expect(text.code, `${command}: ${text.stdout}`).toBe(1)
      expect(text.stdout).toContain(`nothing to score: "${empty}" holds no run of sick2014`)
      expect(text.stdout).not.toContain("all valid")
      const json = await runCli([command, "--task", "sick2014", "--gold", sickGold, empty, "--json"])
      expect(json.code, command).toBe(1)
      expect(json.stderr).toContain(`nothing to score: "${empty}"`)
      if (command === "validate") expect((JSON.parse(json.stdout) as { valid: boolean }).valid).toBe(false)
    }
  })
})

describe("an edition file giving a position as a string (id: \"2\") in a headerless file", () => {
  it("is reported against format.id, saying to write the integer without quotes (exit 2)", async () => {
    const edition = path.join(work, "headerless.yaml")
    fs.writeFileSync(
      edition,
      [
        "id: headerless",
        "title: A headerless TSV task",
        "scale: { min: 0, max: 5 }",
        "submission: file",
        'format: { type: delimited, delimiter: "\\t", header: false, id: "2", score: 3 }',
        "datasets:",
        "  - { name: test, gold: gold.tsv, run: run.tsv }",
        "runLimit: 3",
        "ranking:",
        "  - { subtask: main, metric: spearman, aggregate: single }",
        "missingDataset: zero",
        "published: { style: r3 }",
        ""
      ].join("\n")
    )
    const run = await runCli(["validate", "--task", edition, "--gold", sickGold, sickGold])
    expect(run.code).toBe(2)
    expect(run.stderr).toContain(`${edition}: format.id: "2" is a field name, but a file without a header (header: false) gives fields by 1-based position, an integer: write 2 without quotes`)
    expect(run.stderr).not.toContain("format.header")
  })
})
