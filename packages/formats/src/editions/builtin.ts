/**
 * The built-in task editions, as plain data in the same shape a user edition file has (see
 * docs/task-registry.md). Pair counts are the scored (annotated) pairs of the public test data;
 * file names are those of the official releases (checked against `../shared/data`).
 *
 * Sources: SemEval-2012 Task 6, *SEM 2013 shared task, SemEval-2014 Task 10 and Task 1 (SICK),
 * SemEval-2015 Task 2, SemEval-2016 Task 1, SemEval-2017 Task 1, the STS Benchmark and SemEval-2024
 * Task 1 (SemRel).
 *
 * @since 0.1.0
 */
import type { DatasetSpec, TaskEdition } from "../Registry.js"
import * as Provenance from "./provenance.js"

type Dataset = DatasetSpec
type Edition = Omit<typeof TaskEdition.Encoded, "datasets"> & { readonly datasets: ReadonlyArray<Dataset> }

// Public copies of the released files (see ../shared/data/SOURCES.tsv). No SHA-256 is pinned: the
// data store records the checksum of the first download and verifies later ones against it.
// encodeURI: SemRel's folders are named "Track A" etc.
const gh = (repo: string, commit: string, path: string) => encodeURI(`https://github.com/${repo}/raw/${commit}/${path}`)
const SYNWMD = (path: string) => gh("amao0o0/SynWMD", "59042a9", `data/downstream/STS/${path}`)

/** One STS dataset with the usual `STS.gs / STS.input / STS.output` names. */
const sts = (
  name: string,
  pairs: number,
  extra: Partial<Dataset> & { readonly prefix?: string; readonly noInput?: boolean } = {}
): Dataset => {
  const { prefix = "STS", noInput = false, ...rest } = extra
  return {
    name,
    gold: `${prefix}.gs.${name}.txt`,
    format: "sts-gs",
    ...(noInput ? {} : { input: `${prefix}.input.${name}.txt` }),
    run: `STS.output.${name}.txt`,
    pairs,
    language: "en",
    ...rest
  }
}

const stsFiles = (datasets: ReadonlyArray<Dataset>, base: (file: string) => string, withInput = true) =>
  datasets.flatMap((d) => [
    { url: base(d.gold), file: d.gold },
    ...(withInput && d.input !== undefined ? [{ url: base(d.input), file: d.input }] : [])
  ])

// Every STS edition reports Spearman beside the ranked Pearson (SPEC: "Spearman commonly reported too").
const similarity = (aggregate: "wmean" | "mean" | "pooled" | "single", more: Partial<Edition["ranking"][number]> = {}) =>
  [{ subtask: "similarity" as const, metric: "pearson" as const, aggregate, metrics: ["pearson", "spearman", ...(more.report ?? []).filter((m) => m !== "pearson")], ...more }]

// --- SemEval-2014 Task 1 (SICK) ----------------------------------------------------------------

const sick2014: Edition = {
  id: "sick2014",
  title: "SemEval-2014 Task 1: relatedness and entailment on SICK",
  description:
    "Marelli et al. 2014. One tab-separated file per run with the columns pair_ID, entailment_judgment and relatedness_score in any order, matched to gold by pair_ID; NA in a column = subtask not entered. Up to 5 runs per team, one primary.",
  scale: { min: 1, max: 5 },
  submission: "file",
  // the run file's two columns, scored as two datasets of the one gold file
  datasets: (["relatedness", "entailment"] as const).map((subtask) => ({
    name: subtask,
    subtask,
    gold: "SICK_test_annotated.txt",
    format: "sick",
    input: "SICK_test.txt",
    run: "TeamName_runNprimary.txt",
    pairs: 4927,
    language: "en"
  })),
  runLimit: 5,
  ranking: [
    {
      subtask: "relatedness",
      metric: "pearson",
      aggregate: "single",
      report: ["pearson", "spearman", "mse"],
      metrics: ["pearson", "spearman", "mse", "standardised-mse"]
    },
    { subtask: "entailment", metric: "accuracy", aggregate: "single", report: ["accuracy"], metrics: ["accuracy", "macro-f1"] }
  ],
  missingDataset: "no-official-score",
  published: { style: "r3", tables: ["sick2014-table7", "sick2014-table6"] },
  data: {
    dir: "sick2014",
    sources: [
      { url: gh("brmson/dataset-sts", "e1d3375", "data/sts/sick2014/SICK_test_annotated.txt"), file: "SICK_test_annotated.txt" },
      { url: gh("igorbrigadir/SemEval2014-Task1", "09ad831", "data/SICK_test.txt"), file: "SICK_test.txt" }
    ]
  }
}

// --- STS 2012-2016 ------------------------------------------------------------------------------

// The English STS years share their rules: a folder of one output file per dataset, scores 0-5, up
// to 3 runs per team, a dataset a run did not submit counted as r = 0, the paper's figures to three
// decimals, and the data from SynWMD's copy (its folder `synwmd`) into `<id>/test`.
const englishSts = (
  e: Pick<Edition, "id" | "title" | "description" | "datasets" | "ranking"> & {
    readonly synwmd: string
    readonly dir?: string
    readonly tables?: ReadonlyArray<string>
  }
): Edition => ({
  id: e.id,
  title: e.title,
  description: e.description,
  scale: { min: 0, max: 5 },
  submission: "folder",
  datasets: e.datasets,
  runLimit: 3,
  ranking: e.ranking,
  missingDataset: "zero",
  published: { style: "r3", ...(e.tables !== undefined ? { tables: e.tables } : {}) },
  data: { dir: e.dir ?? `${e.id}/test`, sources: stsFiles(e.datasets, (f) => SYNWMD(`${e.synwmd}/${f}`)) }
})

const sts2012 = englishSts({
  id: "sts2012",
  title: "SemEval-2012 Task 6: Semantic Textual Similarity (English)",
  description:
    "Agirre et al. 2012. The results table is ordered by ALL (Pearson over the five datasets concatenated); ALLnrm and the weighted mean (Mean) are reported beside it.",
  datasets: [
    sts("MSRpar", 750),
    sts("MSRvid", 750),
    sts("SMTeuroparl", 459),
    sts("surprise.OnWN", 750),
    sts("surprise.SMTnews", 399)
  ],
  ranking: similarity("pooled", { alsoAggregate: ["allnrm", "wmean"] }),
  synwmd: "STS12-en-test"
})

const sts2013 = englishSts({
  id: "sts2013",
  title: "*SEM 2013 shared task: Semantic Textual Similarity (core)",
  description:
    "Agirre et al. 2013. Ranked by the mean of per-dataset Pearson weighted by pairs; an optional confidence (0-100) may follow each score.",
  datasets: [
    sts("headlines", 750),
    sts("OnWN", 561),
    sts("FNWN", 189),
    // The SMT input is licensed through the LDC; only its gold is public.
    sts("SMT", 750, { noInput: true })
  ],
  ranking: similarity("wmean", { report: ["pearson", "weighted-pearson"] }),
  synwmd: "STS13-en-test/test-gs"
})

// 2014 asked for an `.en` / `.es` extension on output files ("STS.output.headlines.en.txt").
const en14 = (name: string, pairs: number) => sts(name, pairs, { runAliases: [`STS.output.${name}.en.txt`] })
const sts2014 = englishSts({
  id: "sts2014",
  title: "SemEval-2014 Task 10: Multilingual Semantic Textual Similarity (English)",
  description:
    "Agirre et al. 2014. Ranked by the mean of per-dataset Pearson weighted by pairs; a dataset a run did not submit counts as r = 0 (Table 3).",
  datasets: [
    en14("deft-forum", 450),
    en14("deft-news", 300),
    en14("headlines", 750),
    en14("images", 750),
    en14("OnWN", 750),
    en14("tweet-news", 750)
  ],
  ranking: similarity("wmean", { report: ["pearson", "weighted-pearson"] }),
  dir: "sts2014/test-en",
  tables: ["sts2014-table3"],
  synwmd: "STS14-en-test/sts-en-test-gs-2014"
})

const es14 = (name: string, pairs: number) =>
  sts(name, pairs, { language: "es", runAliases: [`STS.output.${name}.es.txt`] })
const sts2014es: Edition = {
  id: "sts2014-es",
  title: "SemEval-2014 Task 10: Multilingual Semantic Textual Similarity (Spanish)",
  description:
    "Agirre et al. 2014, Spanish subtask: Wikipedia 324 and News 480 pairs, scale 0-4. The data was not found publicly: give --gold.",
  scale: { min: 0, max: 4 },
  submission: "folder",
  datasets: [es14("wikipedia", 324), es14("news", 480)],
  runLimit: 3,
  ranking: similarity("wmean"),
  missingDataset: "zero",
  published: { style: "r3" }
}

const sts2015 = englishSts({
  id: "sts2015",
  title: "SemEval-2015 Task 2: Semantic Textual Similarity (English)",
  description:
    "Agirre et al. 2015. A blank gold line is a pair that was not annotated: the run has a line for it, which is skipped. Ranked by the weighted mean of per-dataset Pearson.",
  datasets: [
    sts("answers-forums", 375),
    sts("answers-students", 750),
    sts("belief", 375),
    sts("headlines", 750),
    sts("images", 750)
  ],
  ranking: similarity("wmean"),
  synwmd: "STS15-en-test/test_evaluation_task2a"
})

// 2016 files are named STS2016.gs.<dataset>.txt; the readme scores `SYSTEM_OUT.<dataset>.txt`.
const s16 = (name: string, pairs: number) =>
  sts(name, pairs, { prefix: "STS2016", runAliases: [`STS2016.output.${name}.txt`, `SYSTEM_OUT.${name}.txt`] })
const sts2016 = englishSts({
  id: "sts2016",
  title: "SemEval-2016 Task 1: Semantic Textual Similarity (English monolingual)",
  description:
    "Agirre et al. 2016. Blank gold lines are pairs not annotated. Ranked by the weighted mean of per-dataset Pearson.",
  datasets: [
    s16("answer-answer", 254),
    s16("headlines", 249),
    s16("plagiarism", 230),
    s16("postediting", 244),
    s16("question-question", 209)
  ],
  ranking: similarity("wmean"),
  synwmd: "STS16-en-test/sts2016-english-with-gs-v1.0"
})

// --- SemEval-2017 Task 1 ------------------------------------------------------------------------

const track = (name: string, language: string, more: Partial<Dataset> = {}) => sts(name, 250, { language, ...more })
const sts2017: Edition = {
  id: "sts2017",
  title: "SemEval-2017 Task 1: Semantic Textual Similarity, multilingual and cross-lingual",
  description:
    "Cer et al. 2017. One file per track, up to 3 runs per team. The published Primary score is the unweighted mean of all seven tracks (Table 10); a run without every track gets none. Track 6 input has 500 lines, of which lines 1-250 are scored.",
  scale: { min: 0, max: 5 },
  submission: "folder",
  datasets: [
    track("track1.ar-ar", "ar-ar"),
    track("track2.ar-en", "ar-en"),
    track("track3.es-es", "es-es"),
    track("track4a.es-en", "es-en"),
    // the paper's Table 10 heads it "es-en WMT" (the WMT quality-estimation pairs)
    track("track4b.es-en", "es-en", { header: "es-en WMT" }),
    track("track5.en-en", "en-en"),
    track("track6.tr-en", "tr-en", { scoredLines: 250, inputLines: 500 })
  ],
  runLimit: 3,
  ranking: similarity("mean"),
  missingDataset: "no-official-score",
  published: { style: "r100", tables: ["sts2017-table10"] },
  data: {
    // The gold and the input are released as two archives; the data store unpacks both here.
    dir: "sts2017/gold",
    sources: [
      { url: gh("eduardofv/sts_eval", "b4cd273", "data/sources/Sts2017.gs.zip"), file: "Sts2017.gs.zip" },
      { url: gh("eduardofv/sts_eval", "b4cd273", "data/sources/Sts2017.eval.v1.1.zip"), file: "Sts2017.eval.v1.1.zip" }
    ]
  }
}

// --- STS Benchmark --------------------------------------------------------------------------------

const STSB_TARBALL = {
  url: gh("eduardofv/sts_eval", "b4cd273", "data/sources/Stsbenchmark.tar.gz"),
  file: "Stsbenchmark.tar.gz"
}
const stsbEdition = (split: "test" | "dev", pairs: number): Edition => ({
  id: split === "test" ? "stsb" : "stsb-dev",
  title: `STS Benchmark (${split})`,
  description:
    "Cer et al. 2017, section 8. A run is one file with one score per line of the csv. Reported as Pearson x 100 (Table 14). There is no run limit in the benchmark; runLimit 1 flags several runs under one team name.",
  scale: { min: 0, max: 5 },
  submission: "file",
  datasets: [
    {
      name: split,
      gold: `sts-${split}.csv`,
      format: "stsb-csv",
      input: `sts-${split}.csv`,
      run: `sts-${split}.output.txt`,
      pairs,
      language: "en"
    }
  ],
  runLimit: 1,
  ranking: similarity("single", { report: ["pearson", "spearman"] }),
  missingDataset: "no-official-score",
  // Table 14 shows the test and dev figures side by side
  published: split === "test" ? { style: "r100", tables: ["stsb-table14"], dev: "stsb-dev" } : { style: "r100" },
  data: { dir: "stsbenchmark", sources: [STSB_TARBALL] }
})

// --- SemEval-2024 Task 1: Semantic Textual Relatedness (SemRel) ---------------------------------

// Test pairs per language (the labelled test files; the same pairs in every track). esp: the
// unlabelled test input has 600 pairs; its labels were never released.
const SEMREL_PAIRS: Record<string, number> = {
  afr: 375, amh: 171, arb: 595, arq: 583, ary: 426, eng: 2600, esp: 600,
  hau: 603, hin: 968, ind: 360, kin: 222, mar: 298, pan: 634, tel: 297
}
const SEMREL_REPO = "semantic-textual-relatedness/Semantic_Relatedness_SemEval2024"
const SEMREL_COMMIT = "3c5941d"
const ESP_NOT_PUBLIC =
  "the organisers did not release the Spanish (esp) test labels (their repository has esp_test.csv without scores and no esp_test_with_labels.csv)"

const semrelDataset = (language: string): Dataset => ({
  name: language,
  gold: `${language}/${language}_test_with_labels.csv`,
  format: "semrel-csv",
  input: `${language}/${language}_test.csv`,
  run: `pred_${language}.csv`,
  pairs: SEMREL_PAIRS[language],
  language,
  ...(language === "esp" ? { goldNotPublic: ESP_NOT_PUBLIC } : {})
})

const semrelEdition = (track: "a" | "b" | "c", title: string, languages: ReadonlyArray<string>): Edition => {
  const datasets = languages.map(semrelDataset)
  const folder = `Track ${track.toUpperCase()}`
  return {
    id: `semrel2024-${track}`,
    title: `SemEval-2024 Task 1: Semantic Textual Relatedness, track ${track.toUpperCase()} (${title})`,
    description:
      "Ousidhoum et al. 2024. A run is a folder (or zip) of pred_<lang>.csv files (header PairID,Pred_Score) for any subset of the languages, matched to the gold by PairID as the organisers' evaluation.py does. Official figure: Spearman per language; teams were ranked per language, so a mean over languages is unofficial. The leaderboards list one submission per team and language; runLimit 1 flags several runs under one team name.",
    scale: { min: 0, max: 1 },
    submission: "folder",
    datasets,
    runLimit: 1,
    ranking: [{ subtask: "relatedness", metric: "spearman", aggregate: "mean", ranked: "per-dataset", report: ["spearman", "pearson"] }],
    missingDataset: "no-official-score",
    published: { style: "r3", tables: ["semrel2024-table"] },
    data: {
      dir: `semrel2024/track-${track}`,
      sources: datasets.flatMap((d) => [
        ...(d.goldNotPublic === undefined ? [{ url: gh(SEMREL_REPO, SEMREL_COMMIT, `${folder}/${d.gold}`), file: d.gold }] : []),
        { url: gh(SEMREL_REPO, SEMREL_COMMIT, `${folder}/${d.input!}`), file: d.input! }
      ])
    }
  }
}

const SEMREL_A = ["amh", "arq", "ary", "eng", "esp", "hau", "kin", "mar", "tel"]
const SEMREL_BC = ["afr", "amh", "arb", "arq", "ary", "eng", "esp", "hau", "hin", "ind", "kin", "pan"]

/** The built-in editions in registry order. @since 0.1.0 */
export const builtinEditions: ReadonlyArray<Edition> = [
  { ...sick2014, ...Provenance.sick2014 },
  { ...sts2012, ...Provenance.sts2012 },
  { ...sts2013, ...Provenance.sts2013 },
  { ...sts2014, ...Provenance.sts2014 },
  { ...sts2014es, ...Provenance.sts2014es },
  { ...sts2015, ...Provenance.sts2015 },
  { ...sts2016, ...Provenance.sts2016 },
  { ...sts2017, ...Provenance.sts2017 },
  { ...stsbEdition("test", 1379), ...Provenance.stsb },
  { ...stsbEdition("dev", 1500), ...Provenance.stsb },
  { ...semrelEdition("a", "supervised", SEMREL_A), ...Provenance.semrel2024 },
  { ...semrelEdition("b", "unsupervised", SEMREL_BC), ...Provenance.semrel2024 },
  { ...semrelEdition("c", "cross-lingual", SEMREL_BC), ...Provenance.semrel2024 }
]
