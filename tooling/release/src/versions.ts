/**
 * After `changeset version` (the root's `version-packages` runs both): each package's
 * `export const VERSION = "x.y.z"` (a version printed in reproducibility signatures: the
 * significance tests'; the scoring engine reads its package.json instead) is set to its
 * package.json's new version, so that a release never signs
 * its results with the previous version. Each package's own test keeps the two equal between
 * releases; this keeps them equal across one.
 *
 * @since 0.2.0
 */
import * as fs from "node:fs"
import * as path from "node:path"

const root = path.resolve(import.meta.dirname, "../../..")
const PATTERN = /^(export const VERSION = ")([^"]*)(")$/m

/** The source files holding a `VERSION` constant, with their package's version. */
export const versionFiles = (repo: string = root): ReadonlyArray<{ readonly file: string; readonly found: string; readonly version: string }> => {
  const out: Array<{ file: string; found: string; version: string }> = []
  for (const group of ["packages", "apps"]) {
    for (const name of fs.readdirSync(path.join(repo, group))) {
      const dir = path.join(repo, group, name)
      if (!fs.existsSync(path.join(dir, "package.json")) || !fs.existsSync(path.join(dir, "src"))) continue
      const { version } = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { version: string }
      for (const entry of fs.readdirSync(path.join(dir, "src"), { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !entry.name.endsWith(".ts")) continue
        const file = path.join(entry.parentPath, entry.name)
        const m = PATTERN.exec(fs.readFileSync(file, "utf8"))
        if (m !== null) out.push({ file, found: m[2], version })
      }
    }
  }
  return out
}

/** Set every `VERSION` to its package's version; the files changed. */
export const sync = (repo: string = root): ReadonlyArray<string> =>
  versionFiles(repo)
    .filter((v) => v.found !== v.version)
    .map((v) => {
      fs.writeFileSync(v.file, fs.readFileSync(v.file, "utf8").replace(PATTERN, `$1${v.version}$3`))
      return path.relative(repo, v.file)
    })

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const changed = sync()
  process.stdout.write(changed.length === 0 ? "VERSION constants: all current\n" : `VERSION set to the package's version in ${changed.join(", ")}\n`)
}
