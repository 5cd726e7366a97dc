/**
 * Every subcommand of `stseval`, in the order `--help` lists them.
 */
import { data } from "./data.js"
import { rank } from "./rank.js"
import { score } from "./score.js"
import { tasks } from "./tasks.js"
import { validate } from "./validate.js"

export const commands = [validate, score, rank, tasks, data] as const
