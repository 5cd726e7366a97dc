// The import boundaries of docs/architecture.md as a lint rule: a package never imports an app, an
// app never imports another app, and each package reads only the packages the "reads" column of
// the architecture's table names. An import is placed by where it resolves, so a relative path
// that climbs into another folder ("../../../apps/cli/...") counts like "@stseval/cli".
import * as path from "node:path"

/** Each package's and app's allowed workspace imports (besides itself), as docs/architecture.md draws them. */
export const reads = {
  "packages/metrics": [],
  "packages/formats": ["packages/metrics"],
  "packages/significance": ["packages/metrics"],
  "packages/baselines": ["packages/formats", "packages/metrics"],
  "packages/scoring": ["packages/formats", "packages/metrics", "packages/significance"],
  "packages/tables": ["packages/scoring", "packages/significance", "packages/metrics", "packages/formats"],
  "packages/leaderboard": ["packages/scoring", "packages/tables", "packages/formats", "packages/metrics"],
  "packages/codabench": ["packages/scoring", "packages/tables", "packages/formats", "packages/metrics"],
  "apps/cli": [
    "packages/formats", "packages/metrics", "packages/significance", "packages/baselines", "packages/scoring",
    "packages/tables", "packages/leaderboard", "packages/codabench", "tooling/app", "tooling/bundle"
  ],
  "apps/report": ["packages/scoring", "packages/tables", "packages/formats", "tooling/app", "tooling/bundle"],
  "apps/watcher": ["packages/formats", "packages/scoring", "packages/leaderboard", "tooling/app", "tooling/bundle"],
  // what the apps share at run time and at build: nothing of the domain
  "tooling/app": [],
  "tooling/bundle": []
}

/** The folder each workspace name lives in (`@stseval/cli` is apps/cli, `@stseval/app` tooling/app). */
const folderOf = {
  cli: "apps/cli",
  report: "apps/report",
  watcher: "apps/watcher",
  app: "tooling/app",
  bundle: "tooling/bundle",
  bench: "tooling/bench",
  docgen: "tooling/docgen",
  release: "tooling/release",
  "eslint-config": "tooling/eslint-config",
  "vitest-config": "tooling/vitest-config",
  tsconfig: "tooling/tsconfig"
}

/** The workspace folder (`packages/x`, `apps/x`, `tooling/x`) of a path relative to the root, if any. */
const unitOf = (relative) => {
  const m = /^(packages|apps|tooling)\/([^/]+)(\/|$)/.exec(relative.split(path.sep).join("/"))
  return m === null ? undefined : `${m[1]}/${m[2]}`
}

/** Where a specifier goes: a workspace folder, or undefined for anything outside the workspace. */
const targetOf = (specifier, file, root) => {
  const named = /^@stseval\/([^/]+)/.exec(specifier)
  if (named !== null) return folderOf[named[1]] ?? `packages/${named[1]}`
  if (specifier.startsWith(".")) return unitOf(path.relative(root, path.resolve(path.dirname(file), specifier)))
  return undefined
}

/** Test tooling is for tests and benchmarks, never for shipped code. */
const testOnly = new Set(["tooling/vitest-config"])

/** Why `from` may not import `to`, or undefined when it may. */
export const forbidden = (from, to, fileInUnit) => {
  if (to === from) return undefined
  const testFile = /^(test|bench)\//.test(fileInUnit) || fileInUnit === "vitest.config.ts"
  if (testOnly.has(to)) return testFile ? undefined : `${to} is test tooling, for tests and benchmarks only`
  if (to.startsWith("apps/")) {
    return from.startsWith("apps/") ? "an app never imports another app (what apps share lives in tooling/ or a package)" : "a package never imports an app"
  }
  const allowed = reads[from]
  if (allowed === undefined) return undefined
  if (!allowed.includes(to)) {
    const list = allowed.length === 0 ? "nothing of the workspace" : allowed.join(", ")
    return `${from} reads only ${list} (docs/architecture.md, "The packages")`
  }
  return undefined
}

const rule = {
  meta: {
    type: "problem",
    docs: { description: "Keeps the import boundaries between packages and apps that docs/architecture.md draws" },
    schema: [],
    messages: { boundary: "{{from}} must not import {{specifier}} ({{to}}): {{why}}." }
  },
  create(context) {
    const root = context.cwd
    const file = context.filename
    const from = unitOf(path.relative(root, file))
    if (from === undefined) return {}
    const fileInUnit = path.relative(path.join(root, from), file).split(path.sep).join("/")
    const check = (node) => {
      if (node === null || node === undefined || node.type !== "Literal" || typeof node.value !== "string") return
      const to = targetOf(node.value, file, root)
      if (to === undefined) return
      const why = forbidden(from, to, fileInUnit)
      if (why !== undefined) context.report({ node, messageId: "boundary", data: { from, specifier: node.value, to, why } })
    }
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source)
    }
  }
}

/** The plugin, as `stseval` in the shared config: `stseval/boundaries`. */
export default { meta: { name: "@stseval/eslint-config/boundaries" }, rules: { boundaries: rule } }
