/**
 * Every subcommand of `stseval`, in the order `--help` lists them.
 */
import { baseline } from "./baseline.js"
import { codabench } from "./codabench.js"
import { compare } from "./compare.js"
import { data } from "./data.js"
import { importCommand } from "./import.js"
import { rank } from "./rank.js"
import { report } from "./report.js"
import { score } from "./score.js"
import { significance } from "./significance.js"
import { tasks } from "./tasks.js"
import { validate } from "./validate.js"
import { watch } from "./watch.js"

export const commands = [validate, score, rank, compare, significance, baseline, importCommand, report, watch, tasks, data, codabench] as const
