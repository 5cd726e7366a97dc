/**
 * Whether `stseval <argv>` starts its first scorer ahead of its scoring: a command that scores a
 * folder of runs (@stseval/scoring's `Isolation.warm` then looks whether it holds many), under the
 * default memory budget (a --memory-budget of its own would replace that scorer). bin.ts asks it,
 * and the bundle's loader runs its source before the program is read (scripts/bundle.ts): it reads
 * nothing but its argument.
 */
export const scoresAhead = (argv: ReadonlyArray<string>): boolean =>
  (argv[0] === "rank" || argv[0] === "significance") && !argv.some((a) => a.startsWith("--memory-budget"))
