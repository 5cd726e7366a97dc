import * as fs from "node:fs"
import * as path from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Registry } from "@stseval/formats"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { scratchDir } from "@stseval/vitest-config/temp"
import { Inputs } from "@stseval/baselines"
import { fixtures } from "./helpers.js"

const run = <A, E>(e: Effect.Effect<A, E, NodeServices.NodeServices>) => Effect.runPromise(e.pipe(Effect.provide(NodeServices.layer)))
const tmp = scratchDir("baseline-inputs")

describe("Inputs: finding a baseline's input", () => {
  const sick = Registry.get("sick2014")!
  const sts2017 = Registry.get("sts2017")!

  it("looks in the data store's folder for the edition and its input sibling, unless a path is given", () => {
    expect(Inputs.inputDirs(sts2017, { dataRoot: "/data" })).toEqual(["/data/sts2017/gold", "/data/sts2017/input"])
    expect(Inputs.inputDirs(sts2017, { input: "mine", dataRoot: "/data" })).toEqual(["mine"])
  })

  it("a SICK file given: read, and an annotated one is its own gold; SICK_train.txt beside it is the training data", async () => {
    const input = await run(Inputs.sickInput(sick, { input: path.join(fixtures, "sick-mini.txt") }))
    expect(input.annotated).toBe(true)
    expect(input.pairs.length).toBeGreaterThan(1)
    fs.copyFileSync(path.join(fixtures, "sick-mini.txt"), path.join(tmp, "SICK_train.txt"))
    fs.copyFileSync(path.join(fixtures, "sick-mini.txt"), path.join(tmp, "SICK_trial.txt"))
    const test = path.join(tmp, "SICK_test_annotated.txt")
    fs.copyFileSync(path.join(fixtures, "sick-mini.txt"), test)
    const train = await run(Inputs.sickTraining(test, { needed: "majority" }))
    expect(train.pairs.length).toBe(input.pairs.length)
    const tuned = await run(Inputs.sickTraining(test, { needed: "overlap", withTrial: true }))
    expect(tuned.pairs.length).toBe(2 * input.pairs.length)
    expect(tuned.notes.map((n) => n.split(":")[0])).toEqual(["train", "trial"])
  })

  it("training data without entailment labels: an error naming the file, its header line and the column expected", async () => {
    const dir = path.join(tmp, "unlabelled")
    fs.mkdirSync(dir, { recursive: true })
    const unlabelled = path.join(dir, "SICK_train.txt")
    fs.writeFileSync(unlabelled, "pair_ID\tsentence_A\tsentence_B\n1\tA man sings\tA man is singing\n")
    const error = await run(Effect.flip(Inputs.sickTraining(path.join(dir, "SICK_test.txt"), { needed: "the majority baseline" })))
    expect(error.message).toBe(
      `${unlabelled}:1: the majority baseline needs training pairs with entailment labels: expected an entailment_judgment column (ENTAILMENT / CONTRADICTION / NEUTRAL)`
    )
  })

  it("nothing found: an error that says where it looked and what to give", async () => {
    const missing = await run(Effect.flip(Inputs.sickInput(sick, { dataRoot: path.join(tmp, "nowhere") })))
    expect(missing.message).toMatch(/^sick2014: no test input found \(looked for .*SICK_test\.txt.*\); give it with --input <file>$/)
    const none = await run(Effect.flip(Inputs.stsInputs(sts2017, { input: path.join(tmp, "empty") })))
    expect(none.message).toMatch(/^sts2017: no input file found \(track1\.ar-ar: STS\.input\.track1\.ar-ar\.txt not found in .*empty, skipped/)
    expect(none.message).toContain("give the input folder with --input <dir>")
  })
})
