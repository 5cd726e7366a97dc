/**
 * What a scored result was computed from, as one line in the style of SacreBLEU's signatures: the
 * edition (id and a hash of its whole definition, so a changed rule changes it), a hash of the
 * gold's content, the official aggregate rule, and the engine's name and version:
 *
 * `sts2017@3f1c9a2e|gold:9f3e51b0|agg:mean|stseval-scoring@0.1.0`
 *
 * The same signature means scored the same way on the same gold (the live board's cache key uses it).
 *
 * @since 0.2.0
 */
import { createHash } from "node:crypto"
import { Registry } from "@stseval/formats"
import type { Gold } from "@stseval/formats"
import * as SignatureLine from "@stseval/significance/Signature"
import { Schema } from "effect"
import { version } from "./internal/version.js"

/**
 * The engine's name in signatures.
 *
 * @example
 * ```ts
 * import { Signature } from "@stseval/scoring"
 *
 * const engine = `${Signature.ENGINE}@${Signature.VERSION}` // "stseval-scoring@..."
 * ```
 * @since 0.2.0
 */
export const ENGINE = "stseval-scoring"

/**
 * Version of this package, printed in every signature (from its package.json); bump the package
 * whenever a run may be scored differently.
 *
 * @example
 * ```ts
 * import { Signature } from "@stseval/scoring"
 *
 * const version: string = Signature.VERSION // the package's version: set by version-packages
 * ```
 * @since 0.2.0
 */
export const VERSION: string = version

/**
 * What a result's figures were computed from (the edition, the gold, the aggregate rule and the
 * engine, each named or hashed), as one printable line.
 *
 * @example
 * ```ts
 * import { Engine, Signature } from "@stseval/scoring"
 *
 * declare const results: Engine.Results // Engine.score's
 * const signature: Signature.Signature = results.signature
 * signature.goldHash // changes when the gold does
 * ```
 * @since 0.2.0
 */
export const Signature = Schema.Struct({
  edition: Schema.String.annotate({ description: "edition id" }),
  editionHash: Schema.String.annotate({ description: "first 8 hex digits of the SHA-256 of the edition's canonical JSON" }),
  goldHash: Schema.String.annotate({ description: "first 8 hex digits of the SHA-256 of the gold's content (pair IDs, scores, labels)" }),
  aggregate: Schema.String.annotate({ description: "the rule making the official figure: wmean, mean, pooled, allnrm, single; per-dataset-<metric> when each dataset is ranked on its own (SemRel)" }),
  engine: Schema.String.annotate({ description: "engine name@version" }),
  text: Schema.String.annotate({ description: "the signature as one line: edition@hash|gold:hash|agg:rule|engine@version" })
}).annotate({ identifier: "Signature", description: "what the figures were computed from (see docs/scoring.md)" })
/** @since 0.2.0 */
export type Signature = typeof Signature.Type

const short = (h: ReturnType<typeof createHash>): string => h.digest("hex").slice(0, 8)

/** JSON with object keys sorted, so that the same edition always hashes the same. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v
  )

/**
 * Short hash of a gold's content: every dataset's name and scored values in the edition's order
 * (for SICK: pair ID, relatedness and entailment label of each pair), and the datasets missing.
 * Blank lines, line endings and column order do not change it; any score does.
 *
 * @example
 * ```ts
 * import { Gold } from "@stseval/formats"
 * import { Signature } from "@stseval/scoring"
 *
 * declare const gold: Gold.Gold
 * const hash = Signature.goldHash(gold) // 8 hex digits of the gold's content
 * ```
 * @since 0.2.0
 */
export const goldHash = (gold: Gold.Gold): string => {
  const h = createHash("sha256")
  for (const d of gold.datasets) {
    h.update(`\u0000${d.kind}\u0000${d.name}\u0000`)
    // one update of the joined pair IDs: a native call per pair was most of the hash's time
    if (d.pairIds !== undefined) h.update(`${d.pairIds.join("\t")}\u0000`)
    if (d.kind === "scores") {
      // the exact doubles, so that no score change goes unseen
      h.update(new Uint8Array(d.scores.buffer, d.scores.byteOffset, d.scores.byteLength))
    } else h.update(d.labels.join("\t"))
  }
  h.update(`\u0000missing\u0000${gold.missing.join("\u0000")}`)
  return short(h)
}

/**
 * The signature of results scored on `edition` against `gold` by this engine.
 *
 * @example
 * ```ts
 * import { Gold, Registry } from "@stseval/formats"
 * import { Signature } from "@stseval/scoring"
 *
 * declare const gold: Gold.Gold
 * Signature.make(Registry.get("sts2017")!, gold).text // "sts2017@...|gold:...|agg:mean|stseval-scoring@..."
 * ```
 * @since 0.2.0
 */
export const make = (edition: Registry.TaskEdition, gold: Gold.Gold): Signature => {
  const editionHash = short(createHash("sha256").update(canonical(edition)))
  const g = goldHash(gold)
  // ranked per dataset (SemRel): no rule makes one official figure; each dataset's metric is it
  const headline = edition.ranking[0]
  const aggregate = Registry.isRankedPerDataset(headline) ? `per-dataset-${headline.metric}` : headline.aggregate
  const engine = `${ENGINE}@${VERSION}`
  // the one signature line of @stseval/significance (sacrebleu's shape): edition@hash|gold:hash|agg:rule|engine@version
  const text = SignatureLine.line([
    { key: edition.id, value: editionHash, join: "@" },
    { key: "gold", value: g },
    { key: "agg", value: aggregate },
    { key: ENGINE, value: VERSION, join: "@" }
  ])
  return { edition: edition.id, editionHash, goldHash: g, aggregate, engine, text }
}
