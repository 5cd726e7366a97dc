/** Why a fetch failed: the download, the folder it would be written to, the checksum. */
import { Schema } from "effect"

/**
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { DataStore, Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const fetched = DataStore.fetchSource("/data/stseval/sts2017", Registry.get("sts2017")!.data!.sources[0]).pipe(
 *   Effect.catchTag("DataFetchError", (e: DataStore.DataFetchError) => Effect.fail(`${e.url}: ${e.message}`)),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.1.0
 */
export class DataFetchError extends Schema.TaggedError<DataFetchError>()("DataFetchError", {
  url: Schema.String,
  message: Schema.String
}) {}

/**
 * A download or folder that would be written outside the data root (an edition file whose
 * `sources[].file` or `data.dir` climbs out). Nothing is written.
 *
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { DataStore, Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const fetched = DataStore.fetchSource("/data/stseval/sts2017", Registry.get("sts2017")!.data!.sources[0], { root: "/data/stseval" }).pipe(
 *   Effect.catchTag("DataPathError", (e: DataStore.DataPathError) => Effect.fail(`${e.path}: ${e.message}`)),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.2.0
 */
export class DataPathError extends Schema.TaggedError<DataPathError>()("DataPathError", {
  path: Schema.String,
  message: Schema.String
}) {}

/**
 * @example
 * ```ts
 * import * as NodeServices from "@effect/platform-node/NodeServices"
 * import { DataStore, Registry } from "@stseval/formats"
 * import { Effect } from "effect"
 *
 * const edition = Registry.get("sts2017")!
 * const fetched = DataStore.fetchSource("/data/stseval/sts2017", edition.data!.sources[0]).pipe(
 *   Effect.catchTag("ChecksumMismatch", (e: DataStore.ChecksumMismatch) => Effect.fail(`${e.url}: expected ${e.expected}, got ${e.actual}`)),
 *   Effect.provide(NodeServices.layer)
 * )
 * ```
 * @since 0.1.0
 */
export class ChecksumMismatch extends Schema.TaggedError<ChecksumMismatch>()("ChecksumMismatch", {
  url: Schema.String,
  expected: Schema.String,
  actual: Schema.String
}) {
  override get message() {
    return `${this.url}: SHA-256 is ${this.actual}, the registry expects ${this.expected}; nothing was cached`
  }
}
