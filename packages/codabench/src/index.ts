/**
 * @stseval/codabench — stseval as the scoring program of a Codabench competition: the bundle an
 * organiser uploads (`competition.yaml`, the scoring program, the reference data), the program the
 * compute worker runs on each submission (`scores.json` and `detailed_results.html`), and the way
 * back from the submissions an organiser downloads to a submissions folder for `rank`, `report` and
 * `significance`.
 *
 * @since 0.1.0
 */
export * as CompetitionYaml from "./CompetitionYaml.js"
export * as ReferenceData from "./ReferenceData.js"
export * as Scores from "./Scores.js"
export * as DetailedResults from "./DetailedResults.js"
export * as ScoringProgram from "./ScoringProgram.js"
export * as Bundle from "./Bundle.js"
export * as Import from "./Import.js"
export * as Sealed from "./Sealed.js"
export * as Unseal from "./Unseal.js"
