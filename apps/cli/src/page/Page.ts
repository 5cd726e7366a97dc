/**
 * The check page for an edition and, optionally, its public development gold: one HTML string
 * (`Html.page` over `Embed.embedded` and the prebuilt `Scripts`). `stseval page check` writes it;
 * `codabench bundle` puts it in the starting kit.
 */
import type { Registry } from "@stseval/formats"
import { Effect } from "effect"
import { embedded } from "./Embed.js"
import * as Html from "./Html.js"
import { scripts } from "./Scripts.js"

export const check = (edition: Registry.TaskEdition, gold: string | undefined, timeMs?: number) =>
  Effect.gen(function* () {
    const data = yield* embedded(edition, gold, timeMs)
    const code = yield* Effect.promise(() => scripts())
    return Html.page(edition, data, code)
  })
