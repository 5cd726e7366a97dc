/** Which MTEB splits are one of our gold files row for row, and which STS tasks are not. */
import type { PredictionsFile } from "./predictions.js"

/**
 * One MTEB split that is one of our gold files row for row. `goldMean` is MTEB's recorded mean
 * gold score of the split (from its `descriptive_stats`), compared with our gold's mean.
 *
 * @since 0.1.0
 */
export interface Mapping {
  readonly task: string
  readonly subset: string
  readonly split: string
  readonly edition: string
  readonly dataset: string
  readonly pairs: number
  readonly goldMean?: number
}

const SEMREL_MEANS: Record<string, readonly [number, number]> = {
  afr: [375, 0.49927999999999995],
  amh: [171, 0.5015204678362573],
  arb: [595, 0.5027563025210086],
  arq: [583, 0.5100686106346484],
  ary: [426, 0.5103521126760563],
  eng: [2600, 0.5166153846153849],
  hau: [603, 0.4962189054726365],
  hin: [968, 0.496157024793389],
  ind: [360, 0.4996666666666664],
  kin: [222, 0.5000900900900903],
  mar: [298, 0.5016107382550332],
  tel: [297, 0.49875420875420884]
}
const SEMREL_TRACKS: Record<string, ReadonlyArray<string>> = {
  "semrel2024-a": ["amh", "arq", "ary", "eng", "hau", "kin", "mar", "tel"],
  "semrel2024-b": ["afr", "amh", "arb", "arq", "ary", "eng", "hau", "hin", "ind", "kin"],
  "semrel2024-c": ["afr", "amh", "arb", "arq", "ary", "eng", "hau", "hin", "ind", "kin"]
}

// STS17 subsets are named language1-language2 as MTEB orders them; the means identify the tracks
// (es-en is track 4a, mean 2.1464; track 4b, the WMT pairs, has mean 4.048).
const sts17 = (subset: string, dataset: string, goldMean: number): Mapping => ({
  task: "STS17",
  subset,
  split: "test",
  edition: "sts2017",
  dataset,
  pairs: 250,
  goldMean
})

/**
 * The MTEB splits imported, and the edition / dataset each becomes.
 *
 * @example
 * ```ts
 * import { Mteb } from "@stseval/formats"
 *
 * // which MTEB task, subset and split is which dataset of which edition
 * Mteb.mappings.map((m) => `${m.task}/${m.split} -> ${m.edition} ${m.dataset}`)
 * ```
 * @since 0.1.0
 */
export const mappings: ReadonlyArray<Mapping> = [
  { task: "STSBenchmark", subset: "default", split: "test", edition: "stsb", dataset: "test", pairs: 1379, goldMean: 2.607916606236405 },
  { task: "STSBenchmark", subset: "default", split: "validation", edition: "stsb-dev", dataset: "dev", pairs: 1500 },
  sts17("ar-ar", "track1.ar-ar", 2.216800000000001),
  sts17("en-ar", "track2.ar-en", 2.1423999999999994),
  sts17("es-es", "track3.es-es", 2.2312000000000007),
  sts17("es-en", "track4a.es-en", 2.1464000000000003),
  sts17("en-en", "track5.en-en", 2.2776000000000014),
  sts17("en-tr", "track6.tr-en", 2.1335999999999986),
  ...Object.entries(SEMREL_TRACKS).flatMap(([edition, languages]) =>
    languages.map((l): Mapping => ({ task: "SemRel24STS", subset: l, split: "test", edition, dataset: l, pairs: SEMREL_MEANS[l][0], goldMean: SEMREL_MEANS[l][1] }))
  )
]

/**
 * MTEB STS tasks that cover our editions but cannot be imported, and why.
 *
 * @example
 * ```ts
 * import { Mteb } from "@stseval/formats"
 *
 * Object.entries(Mteb.unsupported) // MTEB tasks stseval does not import, and why
 * ```
 * @since 0.1.0
 */
export const unsupported: Readonly<Record<string, string>> = {
  STS12: "MTEB's STS12 test split is the five 2012 datasets concatenated (3108 pairs) without dataset or pair IDs; which prediction belongs to which dataset cannot be established",
  STS13: "MTEB's STS13 test split is headlines, OnWN and FNWN concatenated (1500 pairs) without dataset or pair IDs",
  STS14: "MTEB's STS14 test split is the six 2014 datasets concatenated (3750 pairs) without dataset or pair IDs",
  STS15: "MTEB's STS15 test split is the five 2015 datasets concatenated (3000 annotated pairs) without dataset or pair IDs",
  STS16: "MTEB's STS16 test split is the five 2016 datasets concatenated (1186 annotated pairs) without dataset or pair IDs",
  "SICK-R": "MTEB's SICK-R test split is all 9927 SICK pairs (train, trial and test) without pair IDs, not the 4927 pairs of the SemEval-2014 test set"
}

/**
 * The editions a set of predictions files can become runs of.
 *
 * @example
 * ```ts
 * import { Mteb } from "@stseval/formats"
 *
 * declare const files: ReadonlyArray<Mteb.PredictionsFile>
 * Mteb.editionsCovered(files) // e.g. ["stsb", "sts2017"]
 * ```
 * @since 0.1.0
 */
export const editionsCovered = (files: ReadonlyArray<PredictionsFile>): ReadonlyArray<string> => {
  const found = new Set<string>()
  for (const f of files) for (const s of f.splits) for (const m of mappings) if (m.task === f.task && m.subset === s.subset && m.split === s.split) found.add(m.edition)
  return [...found].sort()
}

