/**
 * What a published tarball may hold: what a consumer needs and nothing else. Given the files of a
 * packed package (`package/...` paths and their text), the problems found:
 *
 * - package.json, README.md and LICENSE are there; package.json names no `workspace:` version
 *   and carries the metadata the registry shows (repository with its directory, license, ...);
 * - every file `exports`, `main`, `types` and `bin` point at is in the tarball;
 * - no tests, fixtures, benchmarks, build info or temp files;
 * - every source map, and every `sourceMappingURL` comment, points at files in the tarball (a map
 *   whose sources are missing sends a debugger or an editor's "go to definition" nowhere).
 */
import * as path from "node:path"

/** A packed package: its files by path inside the tarball (`package/dist/index.js`), as text. */
export type Files = ReadonlyMap<string, string>

/** Paths a consumer never needs. */
const UNWANTED: ReadonlyArray<readonly [RegExp, string]> = [
  [/(^|\/)(test|tests|__tests__|fixtures|bench|benchmarks|coverage)\//, "a test, fixture or benchmark folder"],
  [/\.(test|spec|bench)\.[cm]?[jt]sx?$/, "a test or benchmark file"],
  [/\.tsbuildinfo$|\.tmp(\.[a-z]+)?$|(^|\/)\.turbo\//, "build state or a temp file"],
  [/(^|\/)(tsconfig(\.[a-z]+)?\.json|vitest\.config\.[cm]?[jt]s|eslint\.config\.[cm]?js)$/, "a development config"]
]

const targets = (value: unknown): Array<string> =>
  typeof value === "string" ? [value] : typeof value === "object" && value !== null ? Object.values(value).flatMap(targets) : []

/** The problems of a packed package; empty when it holds what a consumer needs and nothing else. */
export const problems = (files: Files): ReadonlyArray<string> => {
  const out: Array<string> = []
  const has = (p: string) => files.has(path.posix.normalize(`package/${p}`))
  const manifestText = files.get("package/package.json")
  if (manifestText === undefined) return ["no package/package.json"]
  const manifest = JSON.parse(manifestText) as Record<string, unknown>
  for (const f of ["README.md", "LICENSE"]) if (!has(f)) out.push(`no ${f}`)
  if (manifestText.includes("workspace:")) out.push("package.json names a workspace: version")
  if (manifest["license"] !== "MIT") out.push(`license is ${String(manifest["license"])}, not MIT`)
  const repository = manifest["repository"] as { readonly url?: string; readonly directory?: string } | undefined
  if (repository?.url === undefined || repository.directory === undefined) out.push("repository has no url or directory")
  for (const key of ["homepage", "bugs", "keywords", "engines"]) if (manifest[key] === undefined) out.push(`no ${key}`)
  for (const key of ["exports", "main", "types", "bin"]) {
    for (const target of targets(manifest[key])) {
      // a pattern export ("./*") is checked by its files, not its pattern
      if (!target.includes("*") && !has(target)) out.push(`${key} points at ${target}, which is not in the tarball`)
    }
  }
  for (const [file, text] of files) {
    const rel = file.slice("package/".length)
    for (const [pattern, what] of UNWANTED) if (pattern.test(rel)) out.push(`${rel}: ${what}`)
    if (file.endsWith(".map")) {
      let map: { readonly sources?: ReadonlyArray<string>; readonly sourceRoot?: string }
      try {
        map = JSON.parse(text) as typeof map
      } catch {
        out.push(`${rel}: not a JSON source map`)
        continue
      }
      for (const source of map.sources ?? []) {
        const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(file), map.sourceRoot ?? "", source))
        if (!files.has(resolved)) out.push(`${rel}: its source ${source} is not in the tarball`)
      }
    } else if (/\.([cm]?js|d\.[cm]?ts)$/.test(file)) {
      const url = /\/\/# sourceMappingURL=(\S+)\s*$/.exec(text)?.[1]
      if (url !== undefined && !url.startsWith("data:") && !files.has(path.posix.normalize(path.posix.join(path.posix.dirname(file), url)))) {
        out.push(`${rel}: its sourceMappingURL ${url} is not in the tarball`)
      }
    }
  }
  return out
}
