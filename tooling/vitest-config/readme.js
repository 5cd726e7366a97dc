// Each package's README shows its main entry with an example; this runs those examples as tests,
// so a README cannot drift from the code. Every ```ts block of the README is written beside the
// package's tests (so that workspace imports resolve to the sources, as in any test) and imported;
// a block states what it shows with node:assert, so an example that stops being true fails.
import * as fs from "node:fs"
import * as path from "node:path"
import { pathToFileURL } from "node:url"

/**
 * The ```ts blocks of a Markdown file, in order.
 *
 * @param {string} file
 * @returns {Array<string>}
 */
export const examples = (file) => [...fs.readFileSync(file, "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1])

/**
 * Run the examples of `<packageDir>/README.md`. Paths written `"examples/..."` (relative to the
 * repository root, as the README says) are made absolute, so the examples run from any folder.
 *
 * @param {string} packageDir the package's folder (its `test/` folder holds the temporary files)
 * @returns {Promise<number>} how many examples ran
 */
export const runExamples = async (packageDir) => {
  const repoRoot = path.resolve(packageDir, "../..")
  const blocks = examples(path.join(packageDir, "README.md"))
  for (const [i, block] of blocks.entries()) {
    const file = path.join(packageDir, "test", `.readme-example-${i + 1}.${process.pid}.tmp.ts`)
    fs.writeFileSync(file, block.replaceAll('"examples/', `"${path.join(repoRoot, "examples")}/`))
    try {
      await import(pathToFileURL(file).href)
    } finally {
      fs.rmSync(file, { force: true })
    }
  }
  return blocks.length
}
