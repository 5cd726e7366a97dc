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

export const verbose = Flag.Boolean("verbose").pipe(
  Flag.withDescription("List every issue, informational ones included (default: the first few errors and warnings per run)"),
  Flag.withDefault(false)
)

export const decimals = Flag.Int("decimals").pipe(
  Flag.withDescription("Decimals of correlations in text output (default: the edition's published style)"),
  Flag.optional
)

export const allRuns = Flag.Boolean("all-runs").pipe(
  Flag.withDescription("Rank every run, not only primary runs (the papers ranked primary runs)"),
  Flag.withDefault(false)
)

export const ci = Flag.Finite("ci").pipe(
  Flag.withDescription(
    "Confidence intervals at this level (95 or 0.95) on every figure and every rank: percentile bootstrap over the pairs, resampled within each dataset, one pass for all (see docs/significance.md)"
  ),
  Flag.optional
)

export const ciResamples = Flag.Int("resamples").pipe(Flag.withDescription("Bootstrap resamples of --ci (default 1000)"), Flag.optional)

export const ciSeed = Flag.Int("seed").pipe(Flag.withDescription("Seed of --ci's resampling (default 12345; printed in the intervals' signature)"), Flag.optional)

/** `--ci`, `--resamples`, `--seed`: the intervals' flags of score, rank and report, spread into their flags. */
export const intervals = { ci, resamples: ciResamples, seed: ciSeed }

export const lenient = Flag.Boolean("lenient").pipe(
  Flag.withDescription(
    "Score a SICK run that has no header line when its columns are unambiguous, with a warning (default: an error, as the official scorer rejects such a file)"
  ),
  Flag.withDefault(false)
)

/**
 * A flag's description and default together, the default stated in the description so that
 * `--help` shows it (effect/cli's help lists no defaults): `Flag.Int("seed").pipe(Flags.defaulting("Seed", 42))`.
 */
export const defaulting =
  <const B extends string | number>(description: string, value: B, shown: string = String(value)) =>
  <A>(flag: Flag.Flag<A>): Flag.Flag<A | B> =>
    flag.pipe(Flag.withDescription(`${description} (default: ${shown})`), Flag.withDefault(value))
