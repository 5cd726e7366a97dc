/**
 * Every subcommand of `stseval`, in the order `--help` lists them, each with one example its
 * `--help` shows (on the SICK example the repository ships, so each can be tried as printed; a
 * `<placeholder>` marks what the repository has no example of). apps/cli/test/examples.test.ts runs them.
 */
import { Command } from "effect/cli"
import { baseline } from "./baseline.js"
import { codabench } from "./codabench.js"
import { compare } from "./compare.js"
import { data } from "./data.js"
import { importCommand } from "./import.js"
import { page } from "./page.js"
import { rank } from "./rank.js"
import { report } from "./report.js"
import { score } from "./score.js"
import { significance } from "./significance.js"
import { tasks } from "./tasks.js"
import { validate } from "./validate.js"
import { watch } from "./watch.js"

const G = "--task sick2014 --gold examples/sick2014/SICK_test_annotated.txt"
const D = "examples/sick2014/submissions"

/** One example per command (effect/cli prints it under EXAMPLES in `--help`), and what it does. */
const example = (args: string, description: string) =>
  Command.withExamples(({ commandPath }) => [{ command: `${commandPath.join(" ")} ${args}`, description }])

export const commands = [
  validate.pipe(example(`${G} ${D}`, "what will and will not be scored in each run, and why (exit 1: Insight_run2.txt is malformed)")),
  score.pipe(example(`${G} ${D}/MeaningFactory_run1primary.txt`, "the official figures of one run")),
  rank.pipe(example(`${G} ${D}`, "the ranked tables of a submissions folder (primary runs)")),
  compare.pipe(example(`${G} ${D}/MeaningFactory_run1primary.txt ${D}/Insight_run1primary.txt`, "is run A better than run B, per subtask")),
  significance.pipe(example(`${G} ${D}`, "which runs are not significantly different from the best")),
  baseline.pipe(example("overlap --task sick2014 --input examples/sick2014/SICK_test_annotated.txt --out /tmp/runs --score", "write the organisers' overlap baseline run and score it")),
  importCommand.pipe(example("mteb <mteb-prediction-folder> --out submissions", "MTEB's <task>_predictions.json as runs, one per model, checked against the gold")),
  report.pipe(example(`${G} ${D} --format latex`, "the paper's results tables, as LaTeX")),
  watch.pipe(example(`${G} --out /tmp/board --once ${D}`, "score a submissions folder once into a leaderboard (drop --once to keep watching)")),
  tasks.pipe(example("--json", "every task edition the registry knows, with its datasets and run file names")),
  data.pipe(example("status sts2017", "whether scoring finds the STS 2017 gold in the data store")),
  codabench.pipe(example("--help", "the Codabench subcommands")),
  page.pipe(example("--help", "the page subcommands: `page check` writes the page that checks a run in the browser"))
] as const
