/**
 * `extends:` in an edition file (issue 32): a user copying `sts2015` writes only what differs. The
 * merge rules (docs/task-registry.md, "Extending an edition"): objects key by key, `null` removes a
 * key, `datasets` merged by name (`remove: true` drops one), other lists replaced; a base is a
 * built-in id or a file relative to the extending one; cycles are refused, naming them.
 */
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { scratchDir, writeIn } from "@stseval/vitest-config/temp"
import { Registry } from "@stseval/formats"

const run = <A, E>(effect: Effect.Effect<A, E, NodeServices.NodeServices>) => Effect.runPromise(effect.pipe(Effect.provide(NodeServices.layer)))
const fail = <A>(effect: Effect.Effect<A, Registry.EditionError, NodeServices.NodeServices>) => run(Effect.flip(effect))

const dir = scratchDir("extends")
const write = (name: string, text: string) => writeIn(dir, name, text)
const sts2015 = Registry.get("sts2015")!

describe("extends: a built-in edition", () => {
  it("a copy of sts2015 with one change is sts2015 with that change, and nothing else", async () => {
    const file = write("sts2015-limit5.yaml", "extends: sts2015\nid: sts2015-mine\nrunLimit: 5\n")
    const e = await run(Registry.loadEditionFile(file))
    expect(e).toEqual({ ...sts2015, id: "sts2015-mine", runLimit: 5 })
  })

  it("objects merge key by key, null removes a key, datasets merge by name, other lists are replaced", async () => {
    const file = write(
      "sts2015-four.yaml",
      [
        "extends: sts2015",
        "id: sts2015-four",
        "scale: { max: 4 }", // min stays 0
        "data: null", // no downloads
        "published: { tables: [] }",
        "datasets:",
        "  - { name: belief, remove: true }",
        "  - { name: headlines, gold: my/STS.gs.headlines.txt }",
        "  - { name: extra, gold: STS.gs.extra.txt, run: STS.output.extra.txt, format: sts-gs }",
        "ranking:",
        "  - { subtask: sts, metric: spearman, aggregate: mean }"
      ].join("\n")
    )
    const e = await run(Registry.loadEditionFile(file))
    expect(e.scale).toEqual({ min: 0, max: 4 })
    expect(e.data).toBeUndefined()
    expect(e.published).toEqual({ ...sts2015.published, tables: [] })
    expect(e.datasets.map((d) => d.name)).toEqual(["answers-forums", "answers-students", "headlines", "images", "extra"])
    const headlines = e.datasets.find((d) => d.name === "headlines")!
    const base = sts2015.datasets.find((d) => d.name === "headlines")!
    expect(headlines).toEqual({ ...base, gold: "my/STS.gs.headlines.txt" })
    expect(e.ranking).toEqual([{ subtask: "sts", metric: "spearman", aggregate: "mean" }])
  })

  it("an unknown base, or a dataset without a name, is an error naming the field", async () => {
    const unknown = await fail(Registry.loadEditionFile(write("bad-base.yaml", "extends: sts2099\nid: x\n")))
    expect(unknown.field).toBe("extends")
    expect(unknown.reason).toContain('no built-in edition "sts2099"')
    const nameless = await fail(Registry.loadEditionFile(write("nameless.yaml", "extends: sts2015\ndatasets:\n  - { gold: a.txt }\n")))
    expect(nameless.field).toBe("datasets[0].name")
    const gone = await fail(Registry.loadEditionFile(write("gone.yaml", "extends: sts2015\ndatasets:\n  - { name: nope, remove: true }\n")))
    expect(gone).toMatchObject({ field: "datasets[0].remove", reason: 'the base edition has no dataset "nope" to remove' })
  })

  it("the merged edition is checked as a whole: a bad value names the field and the extending file", async () => {
    const file = write("bad-merged.yaml", "extends: sts2015\nid: mine\nranking:\n  - { subtask: sts, metric: pearsn, aggregate: wmean }\n")
    const e = await fail(Registry.loadEditionFile(file))
    expect(e.file).toBe(file)
    expect(e.field).toBe("ranking[0].metric")
  })
})

describe("extends: an edition file", () => {
  it("a file relative to the extending one, itself extending a built-in", async () => {
    write("chain/base.yaml", "extends: sts2015\nid: team-base\nrunLimit: 4\n")
    const file = write("chain/sub/mine.yaml", "extends: ../base.yaml\nid: team-mine\ndescription: mine\n")
    const e = await run(Registry.resolve(file))
    expect(e).toEqual({ ...sts2015, id: "team-mine", runLimit: 4, description: "mine" })
  })

  it("a cycle is refused, naming it; so is a file extending itself", async () => {
    write("cycle/a.yaml", "extends: b.yaml\nid: a\n")
    const b = write("cycle/b.yaml", "extends: a.yaml\nid: b\n")
    const e = await fail(Registry.loadEditionFile(b))
    expect(e.field).toBe("extends")
    expect(e.reason).toBe("extends itself through b.yaml -> a.yaml -> b.yaml: a cycle")
    const self = write("cycle/self.yaml", "extends: ./self.yaml\nid: s\n")
    expect((await fail(Registry.loadEditionFile(self))).reason).toBe("extends itself through self.yaml -> self.yaml: a cycle")
  })

  it("a missing base file is an error naming the file given and the one missing", async () => {
    const file = write("lost.yaml", "extends: nowhere.yaml\nid: lost\n")
    const e = await fail(Registry.loadEditionFile(file))
    expect(e.file).toBe(file)
    expect(e.reason).toMatch(/^extends .*nowhere\.yaml: cannot read the file/)
  })
})
