/**
 * What the check page embeds (`Embedded`), read on the organiser's machine: the edition (a
 * built-in by id; a user edition file resolved, `extends` and all, and encoded, so the page needs
 * none of the organiser's files) and the gold files the gold loader would read (`Gold.loadGold`:
 * a file as given; in a folder, each dataset's gold at its nested or flat place).
 */
import * as nodePath from "node:path"
import { Files, Registry } from "@stseval/formats"
import { Isolation } from "@stseval/scoring"
import { Effect, Schema } from "effect"
import type { Embedded } from "./Embedded.js"

/** The most gold a page embeds (base64 makes it a third larger): a development gold is a few MB. */
export const MAX_GOLD_BYTES = 64 * 1024 * 1024

export class EmbedError extends Schema.TaggedError<EmbedError>()("EmbedError", { message: Schema.String }) {}

const goldFiles = (edition: Registry.TaskEdition, gold: string) =>
  Effect.gen(function* () {
    const fs = process.getBuiltinModule("node:fs")
    const info = fs.statSync(gold, { throwIfNoEntry: false })
    if (info === undefined) return yield* new EmbedError({ message: `--gold: ${gold} does not exist` })
    const wanted: Array<{ readonly path: string; readonly file: string }> = []
    if (info.isDirectory()) {
      for (const d of edition.datasets) {
        for (const rel of new Set([d.gold, nodePath.basename(d.gold)])) {
          const file = nodePath.join(gold, rel)
          if (fs.statSync(file, { throwIfNoEntry: false })?.isFile() === true && !wanted.some((w) => w.path === rel)) wanted.push({ path: `${nodePath.basename(gold)}/${rel}`, file })
        }
      }
      if (wanted.length === 0) return yield* new EmbedError({ message: `--gold: ${gold} holds no gold file of ${edition.id} (${edition.datasets.map((d) => d.gold).join(", ")})` })
    } else wanted.push({ path: nodePath.basename(gold), file: gold })
    let total = 0
    const files: Array<{ readonly path: string; readonly base64: string }> = []
    for (const w of wanted) {
      const bytes = yield* Files.readFile(w.file, { what: "the gold file", maxBytes: MAX_GOLD_BYTES }).pipe(Effect.mapError((e) => new EmbedError({ message: `--gold: ${Files.describe(e)}` })))
      total += bytes.length
      if (total > MAX_GOLD_BYTES) return yield* new EmbedError({ message: `--gold: more than ${Files.formatBytes(MAX_GOLD_BYTES)} of gold; a page embeds a development gold of a few MB` })
      files.push({ path: w.path, base64: Buffer.from(bytes).toString("base64") })
    }
    return { name: nodePath.basename(gold), files }
  })

/** The page's embedded data for `task` (an id or an edition file) and, when given, `gold`. */
export const embedded = (edition: Registry.TaskEdition, gold: string | undefined, timeMs = Isolation.defaultBudget.timeMs) =>
  Effect.gen(function* () {
    // a built-in edition by id (the page's registry has it); a user edition travels whole
    const task = Registry.get(edition.id) === edition ? { id: edition.id } : { id: edition.id, edition: Schema.encodeSync(Registry.TaskEdition)(edition) }
    return {
      task,
      ...(gold !== undefined ? { gold: yield* goldFiles(edition, gold) } : {}),
      limits: { timeMs }
    } satisfies Embedded
  })
