/**
 * Flags shared by several commands, so that every command spells and documents them the same way.
 */
import { MIN_MEMORY_MB } from "@stseval/scoring/Isolation"
import { Option } from "effect"
import { Flag } from "effect/cli"
import { Uncertainty } from "@stseval/scoring"

/** A boolean flag, off unless given. */
export const toggle = (name: string, description: string) => Flag.Boolean(name).pipe(Flag.withDescription(description), Flag.withDefault(false))

/** A string flag that may be left out. */
export const optionalString = (name: string, description: string) => Flag.String(name).pipe(Flag.withDescription(description), Flag.optional)

export const task = Flag.String("task").pipe(
  Flag.withAlias("t"),
  Flag.withDescription("Task edition: a registry id (see `stseval tasks`) or a JSON/YAML edition file")
)

export const gold = optionalString("gold", "Gold file or folder; default: the edition's folder in the data store (see `stseval data`)")

export const json = toggle("json", "Print JSON for programs (schema in docs/schemas/) instead of text")

export const dataRoot = optionalString("data-root", "Data store folder; default $STSEVAL_DATA, else $XDG_CACHE_HOME/stseval, else ~/.cache/stseval")

export const verbose = toggle("verbose", "List every issue, informational ones included (default: the first few errors and warnings per run)")

export const allRuns = toggle("all-runs", "Rank every run, not only primary runs (the papers ranked primary runs)")

// ---------------------------------------------------------------------------------------------
// Validators: every flag with a range is checked here, when the flags are parsed, so a bad value
// is a usage error (exit 2) naming the flag, never a RangeError from deep inside (`toFixed(-1)`)
// or a value silently rolled over (`2014-02-30` as 2 March).
// ---------------------------------------------------------------------------------------------

/** The most decimals a figure may be printed with (`toFixed` accepts 0 to 100; more says nothing). */
export const MAX_DECIMALS = 20

/** Whether `n` decimals can be printed. */
export const validDecimals = (n: number): boolean => Number.isInteger(n) && n >= 0 && n <= MAX_DECIMALS

/** A significance level (or any probability strictly between 0 and 1). */
export const validLevel = (x: number): boolean => Number.isFinite(x) && x > 0 && x < 1

const ISO_INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/

/**
 * An ISO 8601 date or instant (`2017-01-31`, `2017-01-31T23:59:00Z`, with an offset or not),
 * checked field by field: `Date.parse` accepts `2014-02-30` as 2 March, which would move a
 * deadline without anyone noticing.
 */
export const strictInstant = (s: string): boolean => {
  const m = ISO_INSTANT.exec(s.trim())
  if (m === null) return false
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (month < 1 || month > 12 || day < 1) return false
  // day 0 of the next month is the last day of this one (UTC: no time-zone shift)
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return false
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || (m[6] !== undefined && Number(m[6]) > 59))) return false
  if (m[7] !== undefined && m[7] !== "Z") {
    const offset = m[7].replace(":", "")
    if (Number(offset.slice(1, 3)) > 23 || Number(offset.slice(3, 5)) > 59) return false
  }
  return Number.isFinite(Date.parse(s.trim()))
}

export const decimals = Flag.Int("decimals").pipe(
  Flag.withDescription(`Decimals of correlations in text output, 0 to ${MAX_DECIMALS} (default: the edition's published style)`),
  Flag.filter(validDecimals, (n) => `--decimals: ${n} is not a number of decimals from 0 to ${MAX_DECIMALS}`),
  Flag.optional
)

/** `--alpha`, a significance level strictly between 0 and 1 (the caller adds description and default). */
export const alpha = Flag.Finite("alpha").pipe(
  Flag.filter(validLevel, (x) => `--alpha: ${x} is not a significance level (0 < alpha < 1, e.g. 0.05)`)
)

/** An integer flag that must be `min` or more (the caller adds description and default). */
export const atLeast = (name: string, min: number, unit = "") =>
  Flag.Int(name).pipe(Flag.filter((n) => n >= min, (n) => `--${name}: ${n} must be ${min} or more${unit}`))

/** A confidence level as `Uncertainty.parseLevel` reads it: 95, 99.99 or 1 (percent), 0.95 (a fraction). */
export const validCiLevel = (x: number): boolean => Uncertainty.parseLevel(x) !== undefined

/** `--deadline`, an ISO 8601 instant, validated strictly. */
export const deadline = Flag.String("deadline").pipe(
  Flag.withDescription("Runs submitted after this ISO 8601 instant are marked post-deadline (dagger)"),
  Flag.filter(strictInstant, (s) => `--deadline: "${s}" is not a valid ISO 8601 date, e.g. 2017-01-31T23:59:00Z`),
  Flag.optional
)

export const ci = Flag.Finite("ci").pipe(
  Flag.filter(validCiLevel, (x) => `--ci: expected ${Uncertainty.levelExpected}, found ${x}`),
  Flag.withDescription(
    "Confidence intervals at this level (95, 99.9 or 0.95; 1 is 1%) on every figure and every rank: percentile bootstrap over the pairs, resampled within each dataset, one pass for all (see docs/significance.md)"
  ),
  Flag.optional
)

export const ciResamples = atLeast("resamples", 1).pipe(Flag.withDescription("Bootstrap resamples of --ci (default 1000; at least 1 + 2 / (1 - level): 41 at 95%; fewer than 1000 are said in the output)"), Flag.optional)

export const ciSeed = Flag.Int("seed").pipe(Flag.withDescription("Seed of --ci's resampling (default 12345; printed in the intervals' signature)"), Flag.optional)

/** `--ci`, `--resamples`, `--seed`: the intervals' flags of score, rank, report and watch, spread into their flags. */
export const intervals = { ci, resamples: ciResamples, seed: ciSeed }

/**
 * `--time-budget` and `--memory-budget`: each run's budget in isolation (scoring's `Isolation`),
 * spread into the flags of every command that scores runs.
 */
export const budget = {
  timeBudget: Flag.Finite("time-budget").pipe(
    Flag.filter((s) => s > 0 && s * 1000 <= 2 ** 31 - 1, (s) => `--time-budget: ${s} is not a number of seconds from above 0 to ${Math.floor((2 ** 31 - 1) / 1000)}`),
    Flag.withDescription("Seconds each run may take to be read and scored, in isolation (default 60): a run over it fails with that reason, the others go on"),
    Flag.optional
  ),
  memoryBudget: Flag.Int("memory-budget").pipe(
    Flag.filter((mb) => mb >= MIN_MEMORY_MB, (mb) => `--memory-budget: ${mb} MiB is too little for a run's scorer (${MIN_MEMORY_MB} MiB at least)`),
    Flag.withDescription("MiB of memory each run's scorer may hold, in isolation (default 1536): a run over it fails with that reason, the others go on"),
    Flag.optional
  )
}

/** What `budget`'s flags give, as `Engine.score`'s `isolation` option. */
export const isolationOf = (flags: { readonly timeBudget: Option.Option<number>; readonly memoryBudget: Option.Option<number> }) => ({
  budget: {
    ...(Option.isSome(flags.timeBudget) ? { timeMs: Math.round(flags.timeBudget.value * 1000) } : {}),
    ...(Option.isSome(flags.memoryBudget) ? { memoryMb: flags.memoryBudget.value } : {})
  }
})

export const lenient = toggle(
  "lenient",
  "Score a SICK run that has no header line when its columns are unambiguous, with a warning (default: an error, as the official scorer rejects such a file)"
)

/**
 * A flag's description and default together, the default stated in the description so that
 * `--help` shows it (effect/cli's help lists no defaults): `Flag.Int("seed").pipe(Flags.defaulting("Seed", 42))`.
 */
export const defaulting =
  <const B extends string | number>(description: string, value: B, shown: string = String(value)) =>
  <A>(flag: Flag.Flag<A>): Flag.Flag<A | B> =>
    flag.pipe(Flag.withDescription(`${description} (default: ${shown})`), Flag.withDefault(value))

/** `--resamples` of compare and significance, 1 or more. */
export const resamples = atLeast("resamples", 1).pipe(defaulting("Resamples for bootstrap / permutation", 10_000))
