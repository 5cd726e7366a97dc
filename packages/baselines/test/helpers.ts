/** Locating `../shared` beside the checkout, and reading task files through @stseval/formats. */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { Issue, Sick, Sts, Text } from "@stseval/formats"

const here = path.dirname(fileURLToPath(import.meta.url))
export const fixtures = path.join(here, "fixtures")
export const repoRoot = path.resolve(here, "../../..")
export const shared = path.resolve(repoRoot, "../shared")
export const hasShared = fs.existsSync(path.join(shared, "data"))
export const skipNote = (suite: string) => {
  if (!hasShared) console.warn(`${suite} skipped: ${shared}/data is absent (the public task data beside the checkout)`)
}

const decode = (file: string) => {
  const text = Text.decode(new Uint8Array(fs.readFileSync(file)), file)
  if (Issue.hasErrors(text.issues)) throw new Error(text.issues.map(Issue.format).join("\n"))
  return text.value
}

export const readSick = (file: string) => {
  const parsed = Sick.parseData(decode(file))
  if (Issue.hasErrors(parsed.issues)) throw new Error(parsed.issues.map(Issue.format).join("\n"))
  return parsed.value.pairs
}

export const readStsInput = (file: string) => Sts.parseInput(decode(file)).value.pairs
export const readStsGold = (file: string) => Sts.parseGold(decode(file)).value.scores
export const readSickRun = (file: string) => Sick.parseRun(decode(file)).value
