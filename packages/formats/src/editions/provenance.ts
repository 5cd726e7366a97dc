/**
 * Where each built-in edition comes from, as MTEB's task metadata says it (reference, licence,
 * citation, dataset revision): the task paper as the ACL Anthology lists it (BibTeX), the data's
 * licence as its release states it (left out where the release states none for the whole data),
 * and the revision of the public copy the data store downloads (../shared/data/SOURCES.tsv).
 *
 * @since 0.3.0
 */

interface Provenance {
  readonly reference: string
  readonly citation: string
  readonly license?: string
  readonly revision?: string
}

/** A paper of the ACL Anthology, as its BibTeX entry there gives it. */
interface Paper {
  readonly key: string
  /** the Anthology's id, e.g. `S17-2001` (its page is https://aclanthology.org/<paper>/) */
  readonly paper: string
  readonly title: string
  readonly author: string
  readonly booktitle: string
  /** BibTeX's month macro (`jun`), written without braces */
  readonly month: string
  readonly year: string
  readonly address: string
  readonly doi?: string
  readonly pages: string
}

/** The Anthology's BibTeX entry of a paper, field by field in the Anthology's order. */
const inproceedings = (p: Paper): string =>
  [
    `@inproceedings{${p.key},`,
    `  title = {${p.title}},`,
    `  author = {${p.author}},`,
    `  booktitle = {${p.booktitle}},`,
    `  month = ${p.month},`,
    `  year = {${p.year}},`,
    `  address = {${p.address}},`,
    "  publisher = {Association for Computational Linguistics},",
    `  url = {https://aclanthology.org/${p.paper}/},`,
    ...(p.doi !== undefined ? [`  doi = {${p.doi}},`] : []),
    `  pages = {${p.pages}}`,
    "}"
  ].join("\n")

const semeval2014 = {
  booktitle: "Proceedings of the 8th International Workshop on Semantic Evaluation ({S}em{E}val 2014)",
  month: "aug",
  year: "2014",
  address: "Dublin, Ireland"
}

export const sick2014: Provenance = {
  reference: "https://aclanthology.org/S14-2001/",
  citation: inproceedings({
    key: "marelli-etal-2014-semeval",
    paper: "S14-2001",
    title: "{S}em{E}val-2014 Task 1: Evaluation of Compositional Distributional Semantic Models on Full Sentences through Semantic Relatedness and Textual Entailment",
    author: "Marelli, Marco and Bentivogli, Luisa and Baroni, Marco and Bernardi, Raffaella and Menini, Stefano and Zamparelli, Roberto",
    ...semeval2014,
    doi: "10.3115/v1/S14-2001",
    pages: "1--8"
  }),
  // sick2014/readme.txt: "released under a Creative Commons Attribution-NonCommercial-ShareAlike 3.0 Unported License"
  license: "CC BY-NC-SA 3.0",
  revision: "brmson/dataset-sts@e1d3375 (gold), igorbrigadir/SemEval2014-Task1@09ad831 (input)"
}

export const sts2012: Provenance = {
  reference: "https://aclanthology.org/S12-1051/",
  citation: inproceedings({
    key: "agirre-etal-2012-semeval",
    paper: "S12-1051",
    title: "{S}em{E}val-2012 Task 6: A Pilot on Semantic Textual Similarity",
    author: "Agirre, Eneko and Cer, Daniel and Diab, Mona and Gonzalez-Agirre, Aitor",
    booktitle: "*{SEM} 2012: The First Joint Conference on Lexical and Computational Semantics {--} Volume 1: Proceedings of the main conference and the shared task, and Volume 2: Proceedings of the Sixth International Workshop on Semantic Evaluation ({S}em{E}val 2012)",
    month: "jun",
    year: "2012",
    address: "Montr{\\'e}al, Canada",
    pages: "385--393"
  }),
  revision: "amao0o0/SynWMD@59042a9"
}

export const sts2013: Provenance = {
  reference: "https://aclanthology.org/S13-1004/",
  citation: inproceedings({
    key: "agirre-etal-2013-sem",
    paper: "S13-1004",
    title: "*{SEM} 2013 shared task: Semantic Textual Similarity",
    author: "Agirre, Eneko and Cer, Daniel and Diab, Mona and Gonzalez-Agirre, Aitor and Guo, Weiwei",
    booktitle: "Second Joint Conference on Lexical and Computational Semantics (*{SEM}), Volume 1: Proceedings of the Main Conference and the Shared Task: Semantic Textual Similarity",
    month: "jun",
    year: "2013",
    address: "Atlanta, Georgia, USA",
    pages: "32--43"
  }),
  revision: "amao0o0/SynWMD@59042a9"
}

export const sts2014: Provenance = {
  reference: "https://aclanthology.org/S14-2010/",
  citation: inproceedings({
    key: "agirre-etal-2014-semeval",
    paper: "S14-2010",
    title: "{S}em{E}val-2014 Task 10: Multilingual Semantic Textual Similarity",
    author: "Agirre, Eneko and Banea, Carmen and Cardie, Claire and Cer, Daniel and Diab, Mona and Gonzalez-Agirre, Aitor and Guo, Weiwei and Mihalcea, Rada and Rigau, German and Wiebe, Janyce",
    ...semeval2014,
    doi: "10.3115/v1/S14-2010",
    pages: "81--91"
  }),
  revision: "amao0o0/SynWMD@59042a9"
}

/** The Spanish sets of 2014: the same paper; the data is not public. */
export const sts2014es: Provenance = { reference: sts2014.reference, citation: sts2014.citation }

export const sts2015: Provenance = {
  reference: "https://aclanthology.org/S15-2045/",
  citation: inproceedings({
    key: "agirre-etal-2015-semeval",
    paper: "S15-2045",
    title: "{S}em{E}val-2015 Task 2: Semantic Textual Similarity, {E}nglish, {S}panish and Pilot on Interpretability",
    author: "Agirre, Eneko and Banea, Carmen and Cardie, Claire and Cer, Daniel and Diab, Mona and Gonzalez-Agirre, Aitor and Guo, Weiwei and Lopez-Gazpio, I{\\~n}igo and Maritxalar, Montse and Mihalcea, Rada and Rigau, German and Uria, Larraitz and Wiebe, Janyce",
    booktitle: "Proceedings of the 9th International Workshop on Semantic Evaluation ({S}em{E}val 2015)",
    month: "jun",
    year: "2015",
    address: "Denver, Colorado",
    doi: "10.18653/v1/S15-2045",
    pages: "252--263"
  }),
  revision: "amao0o0/SynWMD@59042a9"
}

export const sts2016: Provenance = {
  reference: "https://aclanthology.org/S16-1081/",
  citation: inproceedings({
    key: "agirre-etal-2016-semeval",
    paper: "S16-1081",
    title: "{S}em{E}val-2016 Task 1: Semantic Textual Similarity, Monolingual and Cross-Lingual Evaluation",
    author: "Agirre, Eneko and Banea, Carmen and Cer, Daniel and Diab, Mona and Gonzalez-Agirre, Aitor and Mihalcea, Rada and Rigau, German and Wiebe, Janyce",
    booktitle: "Proceedings of the 10th International Workshop on Semantic Evaluation ({S}em{E}val-2016)",
    month: "jun",
    year: "2016",
    address: "San Diego, California",
    doi: "10.18653/v1/S16-1081",
    pages: "497--511"
  }),
  // sts2016/test/LICENSE.txt gives one licence per source (CC BY-SA 3.0, CC BY 4.0, CC BY-NC-SA 2.0 UK, ...)
  license: "one per dataset, in the release's LICENSE.txt",
  revision: "amao0o0/SynWMD@59042a9"
}

const cer2017 = inproceedings({
  key: "cer-etal-2017-semeval",
  paper: "S17-2001",
  title: "{S}em{E}val-2017 Task 1: Semantic Textual Similarity Multilingual and Crosslingual Focused Evaluation",
  author: "Cer, Daniel and Diab, Mona and Agirre, Eneko and Lopez-Gazpio, I{\\~n}igo and Specia, Lucia",
  booktitle: "Proceedings of the 11th International Workshop on Semantic Evaluation ({S}em{E}val-2017)",
  month: "aug",
  year: "2017",
  address: "Vancouver, Canada",
  doi: "10.18653/v1/S17-2001",
  pages: "1--14"
})

export const sts2017: Provenance = {
  reference: "https://aclanthology.org/S17-2001/",
  citation: cer2017,
  revision: "eduardofv/sts_eval@b4cd273"
}

/** The STS Benchmark was introduced in the STS 2017 task paper; its readme asks for that citation. */
export const stsb: Provenance = {
  reference: "https://aclanthology.org/S17-2001/",
  citation: cer2017,
  // stsbenchmark/LICENSE.txt: the scores under CC BY-SA 4.0; each dataset's text under its own licence
  license: "scores CC BY-SA 4.0; the text of each dataset under its own licence (the release's LICENSE.txt)",
  revision: "eduardofv/sts_eval@b4cd273"
}

export const semrel2024: Provenance = {
  reference: "https://aclanthology.org/2024.semeval-1.272/",
  citation: inproceedings({
    key: "ousidhoum-etal-2024-semeval",
    paper: "2024.semeval-1.272",
    title: "{S}em{E}val-2024 Task 1: Semantic Textual Relatedness for {A}frican and {A}sian Languages",
    author: "Ousidhoum, Nedjma and Muhammad, Shamsuddeen Hassan and Abdalla, Mohamed and Abdulmumin, Idris and Ahmad, Ibrahim Said and Ahuja, Sanchit and Aji, Alham Fikri and Araujo, Vladimir and Beloucif, Meriem and De Kock, Christine and Hourrane, Oumaima and Shrivastava, Manish and Solorio, Thamar and Surange, Nirmal and Vishnubhotla, Krishnapriya and Yimam, Seid Muhie and Mohammad, Saif M.",
    booktitle: "Proceedings of the 18th International Workshop on Semantic Evaluation ({S}em{E}val-2024)",
    month: "jun",
    year: "2024",
    address: "Mexico City, Mexico",
    doi: "10.18653/v1/2024.semeval-1.272",
    pages: "1963--1978"
  }),
  revision: "semantic-textual-relatedness/Semantic_Relatedness_SemEval2024@3c5941d"
}
