/**
 * Every subcommand of `stseval`, in the order `--help` lists them.
 */
import { data } from "./data.js"
import { tasks } from "./tasks.js"

export const commands = [tasks, data] as const
