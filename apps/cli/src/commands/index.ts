/**
 * Every subcommand of `stseval`, in the order `--help` lists them.
 */
import { tasks } from "./tasks.js"

export const commands = [tasks] as const
