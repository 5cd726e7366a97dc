// A test file's scratch folder, made at collection and removed after its last test: said once here.
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll } from "vitest"

/**
 * A new folder `stseval-<name>-XXXXXX` in the system's temporary folder, removed after the calling
 * file's (or suite's) tests.
 *
 * @param {string} name
 * @returns {string}
 */
export const scratchDir = (name) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `stseval-${name}-`))
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
  return dir
}

/**
 * Writes `text` to `dir/name`, making the folders on the way; the file's path.
 *
 * @param {string} dir
 * @param {string} name
 * @param {string} text
 * @returns {string}
 */
export const writeIn = (dir, name, text) => {
  const file = path.join(dir, name)
  fs.mkdirSync(path.dirname(file), { recursive: true })
  fs.writeFileSync(file, text)
  return file
}
