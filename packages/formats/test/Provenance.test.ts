/**
 * Task provenance (issue 32), as MTEB's task metadata: each built-in edition names its paper
 * (BibTeX, as the ACL Anthology lists it), the data's licence where its release states one, and the
 * revision of the public copy it is downloaded from; a user edition may name them too, and a
 * citation that is not one BibTeX entry is an error naming the field.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { Registry } from "@stseval/formats"
import * as Bibtex from "../src/internal/bibtex.js"

const repoRoot = path.resolve(import.meta.dirname, "../../..")
const shared = process.env["STSEVAL_SHARED"] ?? path.resolve(repoRoot, "../shared")
const hasShared = fs.existsSync(path.join(shared, "data"))
if (!hasShared) console.warn("packages/formats Provenance.test.ts: ../shared is absent; the licence check against the data's own readme is skipped")

// the task papers (SPEC §1), by their ACL Anthology ids
const papers: ReadonlyArray<readonly [string, string, string, string]> = [
  ["sick2014", "marelli-etal-2014-semeval", "Marelli et al. (2014), SemEval-2014 Task 1: Evaluation of Compositional Distributional Semantic Models", "S14-2001"],
  ["sts2012", "agirre-etal-2012-semeval", "Agirre et al. (2012), SemEval-2012 Task 6: A Pilot on Semantic Textual Similarity", "S12-1051"],
  ["sts2013", "agirre-etal-2013-sem", "Agirre et al. (2013), *SEM 2013 shared task: Semantic Textual Similarity", "S13-1004"],
  ["sts2014", "agirre-etal-2014-semeval", "Agirre et al. (2014), SemEval-2014 Task 10: Multilingual Semantic Textual Similarity", "S14-2010"],
  ["sts2014-es", "agirre-etal-2014-semeval", "Agirre et al. (2014), SemEval-2014 Task 10", "S14-2010"],
  ["sts2015", "agirre-etal-2015-semeval", "Agirre et al. (2015), SemEval-2015 Task 2: Semantic Textual Similarity, English, Spanish and Pilot on Interpretability", "S15-2045"],
  ["sts2016", "agirre-etal-2016-semeval", "Agirre et al. (2016), SemEval-2016 Task 1: Semantic Textual Similarity, Monolingual and Cross-Lingual Evaluation", "S16-1081"],
  ["sts2017", "cer-etal-2017-semeval", "Cer et al. (2017), SemEval-2017 Task 1: Semantic Textual Similarity Multilingual and Crosslingual Focused Evaluation", "S17-2001"],
  ["stsb", "cer-etal-2017-semeval", "Cer et al. (2017), SemEval-2017 Task 1", "S17-2001"],
  ["stsb-dev", "cer-etal-2017-semeval", "Cer et al. (2017), SemEval-2017 Task 1", "S17-2001"],
  ["semrel2024-a", "ousidhoum-etal-2024-semeval", "Ousidhoum et al. (2024), SemEval-2024 Task 1: Semantic Textual Relatedness for African and Asian Languages", "2024.semeval-1.272"],
  ["semrel2024-b", "ousidhoum-etal-2024-semeval", "Ousidhoum et al. (2024), SemEval-2024 Task 1", "2024.semeval-1.272"],
  ["semrel2024-c", "ousidhoum-etal-2024-semeval", "Ousidhoum et al. (2024), SemEval-2024 Task 1", "2024.semeval-1.272"]
]

describe("the built-in editions carry their provenance", () => {
  it("every edition has its task paper: the BibTeX key, the line under a table, the Anthology address", () => {
    expect(papers.map(([id]) => id)).toEqual(Registry.builtinIds)
    for (const [id, key, line, anthology] of papers) {
      const e = Registry.get(id)!
      const c = Registry.citationOf(e)
      expect(c?.key, id).toBe(key)
      expect(c?.text.startsWith(line), `${id}: ${c?.text}`).toBe(true)
      expect(e.reference, id).toBe(`https://aclanthology.org/${anthology}/`)
      expect(c?.bibtex, id).toContain(`url = {https://aclanthology.org/${anthology}/}`)
    }
  })

  it("the data's licence only where its release states one for the whole data; the revision of every public copy", () => {
    expect(Object.fromEntries(Registry.builtin.filter((e) => e.license !== undefined).map((e) => [e.id, e.license]))).toEqual({
      sick2014: "CC BY-NC-SA 3.0",
      sts2016: "one per dataset, in the release's LICENSE.txt",
      stsb: "scores CC BY-SA 4.0; the text of each dataset under its own licence (the release's LICENSE.txt)",
      "stsb-dev": "scores CC BY-SA 4.0; the text of each dataset under its own licence (the release's LICENSE.txt)"
    })
    // an edition with public data names the commit of the copy its sources download
    for (const e of Registry.builtin.filter((x) => x.data !== undefined)) {
      for (const s of e.data!.sources) {
        const commit = /github\.com\/[^/]+\/[^/]+\/raw\/([0-9a-f]+)\//.exec(s.url)?.[1]
        expect(e.revision, `${e.id}: ${s.url}`).toContain(`@${commit}`)
      }
    }
    expect(Registry.get("sts2014-es")!.revision).toBeUndefined()
  })

  it.skipIf(!hasShared)("the licences are the ones the data's own readme and LICENSE files state", () => {
    const read = (f: string) => fs.readFileSync(path.join(shared, "data", f), "utf8").replace(/\s+/g, " ")
    expect(read("sick2014/readme.txt")).toContain("Creative Commons Attribution-NonCommercial-ShareAlike 3.0 Unported License")
    expect(read("stsbenchmark/LICENSE.txt")).toContain('The scores are released under a "Commons Attribution - Share Alike 4.0 International License"')
    expect(read("stsbenchmark/LICENSE.txt")).toContain("The text of each dataset has a license of its own")
    expect(read("sts2016/test/LICENSE.txt")).toMatch(/Used for: STS 2016 Question-Question, STS 2016 Answer-Answer Creative Commons Attribution-ShareAlike 3\.0/)
  })
})

describe("a BibTeX entry", () => {
  it("its authors and title in plain text: accents as letters, braces dropped; one, two, more authors", () => {
    const entry = (author: string) => {
      const p = Bibtex.parse(`@inproceedings{k,\n  title = {{S}em{E}val in Montr{\\'e}al},\n  author = {${author}},\n  year = {2012}\n}`)
      if (p._tag === "error") throw new Error(p.reason)
      return p.entry
    }
    expect(Bibtex.line(entry("Lopez-Gazpio, I{\\~n}igo"))).toBe("Lopez-Gazpio (2012), SemEval in Montréal")
    expect(Bibtex.shortCite(entry("Cer, Daniel and Diab, Mona"))).toBe("Cer and Diab (2012)")
    expect(Bibtex.shortCite(entry("Daniel Cer and Mona Diab and Eneko Agirre"))).toBe("Cer et al. (2012)")
    expect(Bibtex.plain("Do{\\u{g}}ru{\\\"o}z")).toBe("Doğruöz")
  })

  it("what is not one entry with a key, a title, a year and authors is refused, saying what is missing", () => {
    expect(Bibtex.parse("Agirre et al. 2012")).toMatchObject({ _tag: "error", reason: "expected one BibTeX entry, @type{key, field = {value}, ...}" })
    expect(Bibtex.parse("@article{k, title = {T}, author = {A}}")).toMatchObject({ _tag: "error", reason: "the entry has no year" })
    expect(Bibtex.parse("@article{k, title = {T, year = 2000")).toMatchObject({ _tag: "error", reason: "the value of title is not closed" })
    expect(Bibtex.parse("@article{k, title = {T}, year = 2000, author = {A}}\n@article{j, title = {U}, year = 2001, author = {B}}")._tag).toBe("error")
  })
})

describe("a user edition's provenance", () => {
  const mine = { ...Registry.get("sts2015")!, id: "mine" }
  it("reference, citation, licence and revision are optional and kept", async () => {
    const { reference: _r, citation: _c, license: _l, revision: _v, ...without } = mine
    const bare = await Effect.runPromise(Registry.decodeEdition(without))
    expect(Registry.citationOf(bare)).toBeUndefined()
    const given = await Effect.runPromise(
      Registry.decodeEdition({ ...mine, citation: "@misc{mine2026, title = {My STS}, author = {Doe, Jane}, year = 2026}", license: "CC BY 4.0", revision: "v1.2" })
    )
    expect(Registry.citationOf(given)).toEqual({ key: "mine2026", text: "Doe (2026), My STS", bibtex: "@misc{mine2026, title = {My STS}, author = {Doe, Jane}, year = 2026}" })
    expect(given).toMatchObject({ license: "CC BY 4.0", revision: "v1.2" })
  })

  it("a citation that is not a BibTeX entry is an error naming the field and what is missing", async () => {
    const e = await Effect.runPromise(Effect.flip(Registry.decodeEdition({ ...mine, citation: "Doe 2026, My STS" }, "mine.yaml")))
    expect(e.field).toBe("citation")
    expect(e.reason).toBe("not a BibTeX citation: expected one BibTeX entry, @type{key, field = {value}, ...}")
  })
})
