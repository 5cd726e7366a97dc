/**
 * Flags shared by several commands, so that every command spells and documents them the same way.
 */
import { Flag } from "effect/cli"

export const task = Flag.String("task").pipe(
  Flag.withAlias("t"),
  Flag.withDescription("Task edition: a registry id (see `stseval tasks`) or a JSON/YAML edition file")
)

export const gold = Flag.String("gold").pipe(
  Flag.withDescription(
    "Gold file or folder; default: the edition's folder in the data store (see `stseval data`)"
  ),
  Flag.optional
)

export const json = Flag.Boolean("json").pipe(
  Flag.withDescription("Print JSON for programs (schema in docs/schemas/) instead of text"),
  Flag.withDefault(false)
)

export const dataRoot = Flag.String("data-root").pipe(
  Flag.withDescription("Data store folder; default $STSEVAL_DATA, else $XDG_CACHE_HOME/stseval, else ~/.cache/stseval"),
  Flag.optional
)
