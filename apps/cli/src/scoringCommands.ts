/**
 * The commands that score runs: their first isolated scorer is started before the command line is
 * loaded (by bin.ts, and earlier still by the executable's loader, scripts/bundle.ts), since a
 * scorer takes as long to start as the program (it loads the same file). A command that ends up
 * scoring nothing (`--help`, `codabench bundle`) leaves it unused: it never keeps the process alive.
 */
export const scoringCommands: ReadonlyArray<string> = ["score", "rank", "report", "validate", "compare", "significance", "baseline", "watch", "codabench"]
