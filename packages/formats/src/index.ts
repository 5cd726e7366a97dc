/**
 * @stseval/formats — parsers, writers and validation for the files of SICK and STS shared tasks,
 * submissions folders, and the task registry.
 *
 * @since 0.1.0
 */
export * as Issue from "./Issue.js"
export * as Text from "./Text.js"
export * as Csv from "./Csv.js"
export * as Files from "./Files.js"
export * as Sick from "./Sick.js"
export * as Sts from "./Sts.js"
export * as StsBenchmark from "./StsBenchmark.js"
export * as DataStore from "./DataStore.js"
export * as Registry from "./Registry.js"
export * as Submissions from "./Submissions.js"
export * as Gold from "./Gold.js"
export * as SemRel from "./SemRel.js"
export * as Glue from "./Glue.js"
export * as Mteb from "./Mteb.js"
export * as Format from "./Format.js"
export * as Formats from "./Formats.js"
export * as Declarative from "./Declarative.js"
