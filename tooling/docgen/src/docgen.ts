/**
 * The API reference of the library packages (packages/*), read from their sources with the
 * TypeScript compiler, the way Effect's docgen reads its modules: each module a package's index
 * re-exports (`export * as Pearson from "./Pearson.js"`), each export of it (function, constant,
 * type, interface, class) with its doc comment, `@since` and `@example` blocks.
 *
 * - `reference()` gives every export with its doc; `markdown()` renders docs/api/ from it
 *   (`pnpm docs:api` writes the files; a test keeps them current);
 * - `checkExamples()` type-checks every `@example` block as a module of its own inside its package
 *   (so `import { Pearson } from "@stseval/metrics"` resolves to the sources, as in the tests), all
 *   in one TypeScript program, and lists the functions and classes that have no example and the
 *   other exports that have no description.
 *
 * An example is TypeScript, optionally in a ```ts fence, that imports what it uses, like a user's
 * file: it must type-check as it stands.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import ts from "typescript"

export const repoRoot = path.resolve(import.meta.dirname, "../../..")

/** One export of a module. */
export interface Export {
  readonly package: string
  readonly module: string
  readonly name: string
  readonly kind: "function" | "constant" | "type" | "interface" | "class" | "namespace" | "enum"
  readonly description: string
  readonly since: string | undefined
  readonly examples: ReadonlyArray<string>
  /** the declaration as a reader needs it: a signature, or the type's text */
  readonly signature: string
  /** where it is declared, relative to the repository */
  readonly file: string
  readonly line: number
}

/** One module of a package. */
export interface Module {
  readonly package: string
  readonly name: string
  readonly description: string
  readonly file: string
  readonly exports: ReadonlyArray<Export>
}

/** The library packages: every folder of packages/ with a src/index.ts, by package name. */
export const packages = (): ReadonlyArray<{ readonly name: string; readonly dir: string; readonly description: string }> =>
  fs
    .readdirSync(path.join(repoRoot, "packages"))
    .map((d) => path.join(repoRoot, "packages", d))
    .filter((dir) => fs.existsSync(path.join(dir, "src/index.ts")))
    .map((dir) => {
      const p = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { name: string; description: string }
      return { name: p.name, dir, description: p.description }
    })
    .sort((a, b) => a.name.localeCompare(b.name))

const compilerOptions = (): ts.CompilerOptions => {
  const file = path.join(repoRoot, "tsconfig.check.json")
  const config = ts.readConfigFile(file, (f) => ts.sys.readFile(f))
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, repoRoot, undefined, file)
  return { ...parsed.options, noEmit: true, noUnusedLocals: false, noUnusedParameters: false }
}

const text = (comment: string | ts.NodeArray<ts.JSDocComment> | undefined): string =>
  comment === undefined ? "" : typeof comment === "string" ? comment : ts.getTextOfJSDocComment(comment) ?? ""

/** A doc comment's parts: the description, `@since`, `@example` blocks (fences removed). */
const docOf = (node: ts.Node): { description: string; since: string | undefined; examples: Array<string> } => {
  const out = { description: "", since: undefined as string | undefined, examples: [] as Array<string> }
  for (const doc of ts.getJSDocCommentsAndTags(node)) {
    if (!ts.isJSDoc(doc)) continue
    out.description = [out.description, text(doc.comment)].filter((s) => s !== "").join("\n\n")
    for (const tag of doc.tags ?? []) {
      const name = tag.tagName.text
      if (name === "since") out.since = text(tag.comment).trim()
      if (name === "example") out.examples.push(exampleText(tag))
    }
  }
  return out
}

/** An example's code as written (the compiler's comment text drops indentation), without fences. */
const exampleText = (tag: ts.JSDocTag): string => {
  const source = tag.getSourceFile().text.slice(tag.getStart(), tag.getEnd())
  const lines = source.split("\n").slice(1).map((l) => l.replace(/^\s*\* ?/, ""))
  const body = lines.join("\n").replace(/\*\/\s*$/, "").trim()
  return body.replace(/^```[a-z]*\n/, "").replace(/\n```$/, "").trim()
}

const kindOf = (decl: ts.Declaration): Export["kind"] => {
  if (ts.isFunctionDeclaration(decl)) return "function"
  if (ts.isClassDeclaration(decl)) return "class"
  if (ts.isInterfaceDeclaration(decl)) return "interface"
  if (ts.isTypeAliasDeclaration(decl)) return "type"
  if (ts.isEnumDeclaration(decl)) return "enum"
  if (ts.isModuleDeclaration(decl)) return "namespace"
  if (ts.isVariableDeclaration(decl)) {
    const init = decl.initializer
    return init !== undefined && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) ? "function" : "constant"
  }
  return "constant"
}

/** The declaration's text up to its body: what a reader needs to call it or build one. */
const signatureOf = (decl: ts.Declaration, checker: ts.TypeChecker): string => {
  const source = decl.getSourceFile().text
  const clean = (s: string) => s.replace(/\n\s*\n/g, "\n").trim()
  if (ts.isVariableDeclaration(decl)) {
    const init = decl.initializer
    if (init !== undefined && (ts.isArrowFunction(init) || ts.isFunctionExpression(init))) {
      // `const f = <A>(a: A): B => ...` is shown as `const f: <A>(a: A) => B`
      const typeParameters = init.typeParameters === undefined ? "" : `<${init.typeParameters.map((t) => t.getText()).join(", ")}>`
      // a parameter with a default is an optional one to a caller
      const parameters = init.parameters
        .map((p) => {
          const type = p.type?.getText() ?? checker.typeToString(checker.getTypeAtLocation(p), decl, ts.TypeFormatFlags.NoTruncation)
          return `${p.dotDotDotToken !== undefined ? "..." : ""}${p.name.getText()}${p.questionToken !== undefined || p.initializer !== undefined ? "?" : ""}: ${type}`
        })
        .join(", ")
      const signature = checker.getSignatureFromDeclaration(init)
      const returns = init.type?.getText() ?? (signature === undefined ? "unknown" : checker.typeToString(checker.getReturnTypeOfSignature(signature), decl, ts.TypeFormatFlags.NoTruncation))
      return clean(`export declare const ${decl.name.getText()}: ${typeParameters}(${parameters}) => ${returns}`)
    }
    if (decl.type !== undefined) return `export declare const ${decl.name.getText()}: ${clean(decl.type.getText())}`
    const type = checker.typeToString(checker.getTypeAtLocation(decl.name), decl, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType)
    return `export declare const ${decl.name.getText()}: ${type.length > 600 ? `${type.slice(0, 600)}...` : type}`
  }
  if (ts.isFunctionDeclaration(decl) && decl.body !== undefined) return clean(source.slice(decl.getStart(), decl.body.getStart()))
  if (ts.isClassDeclaration(decl)) {
    // up to the class body's brace (the heritage clause may hold braces of its own)
    return clean(source.slice(decl.getStart(), decl.members.pos - 1).replace(/^export\s+/, "export declare ")) + " {}"
  }
  const full = clean(source.slice(decl.getStart(), decl.getEnd()))
  const lines = full.split("\n")
  return lines.length > 60 ? `${lines.slice(0, 60).join("\n")}\n  // ...` : full
}

/** The node whose doc comment documents a declaration (a variable's statement, an export specifier's declaration). */
const documented = (decl: ts.Declaration): ts.Node => (ts.isExportSpecifier(decl) ? decl.parent.parent : decl)

/** The program of the library packages' sources, made once (the examples' check reuses its files). */
let sources: ts.Program | undefined
const sourcesProgram = () => (sources ??= ts.createProgram(packages().map((p) => path.join(p.dir, "src/index.ts")), compilerOptions()))

/** Every module of every library package, with its exports. */
export const reference = (): ReadonlyArray<Module> => {
  const pkgs = packages()
  const program = sourcesProgram()
  const checker = program.getTypeChecker()
  const modules: Array<Module> = []
  for (const pkg of pkgs) {
    const index = program.getSourceFile(path.join(pkg.dir, "src/index.ts"))
    if (index === undefined) continue
    for (const statement of index.statements) {
      if (!ts.isExportDeclaration(statement) || statement.exportClause === undefined || !ts.isNamespaceExport(statement.exportClause)) continue
      const name = statement.exportClause.name.text
      const target = checker.getSymbolAtLocation(statement.moduleSpecifier!)
      if (target === undefined) continue
      const file = target.valueDeclaration?.getSourceFile() ?? target.declarations?.[0]?.getSourceFile()
      if (file === undefined) continue
      const moduleDoc = file.statements.length > 0 ? docOf(file.statements[0]).description : ""
      // the module's own comment is the file's first doc comment (before its imports)
      const head = /^\s*\/\*\*([\s\S]*?)\*\//.exec(file.text)
      const moduleDescription = head === null ? moduleDoc : head[1].split("\n").map((l) => l.replace(/^\s*\* ?/, "")).filter((l) => !l.startsWith("@")).join("\n").trim()
      const exports: Array<Export> = []
      for (const symbol of checker.getExportsOfModule(target)) {
        const decls = symbol.declarations ?? []
        if (decls.length === 0) continue
        // an alias (`export { files }`): documented where it is exported, shown as what it names; an
        // export statement with no doc comment of its own (a module re-exporting its internal
        // modules' names) takes each name's doc from where it is declared
        const aliased = (d: ts.ExportSpecifier) => checker.getAliasedSymbol(symbol).declarations ?? [d]
        const own = decls.map((d) => docOf(documented(d)))
        const inherits = (d: ts.Declaration, i: number): d is ts.ExportSpecifier => ts.isExportSpecifier(d) && own[i].description === "" && own[i].since === undefined
        const shown = decls.flatMap((d, i) => (inherits(d, i) ? aliased(d) : ts.isExportSpecifier(d) ? [aliased(d)[0]] : [d]))
        const docs = decls.flatMap((d, i) => (inherits(d, i) ? aliased(d).map((a) => docOf(documented(a))) : [own[i]]))
        const first = shown[0]
        exports.push({
          package: pkg.name,
          module: name,
          name: symbol.name,
          kind: kindOf(first),
          description: docs.map((d) => d.description).filter((d) => d !== "").join("\n\n"),
          since: docs.map((d) => d.since).find((s) => s !== undefined),
          examples: docs.flatMap((d) => d.examples),
          signature: [...new Set(shown.map((d) => signatureOf(d, checker)))].join("\n"),
          file: path.relative(repoRoot, decls[0].getSourceFile().fileName),
          line: decls[0].getSourceFile().getLineAndCharacterOfPosition(decls[0].getStart()).line + 1
        })
      }
      exports.sort((a, b) => a.name.localeCompare(b.name))
      modules.push({ package: pkg.name, name, description: moduleDescription, file: path.relative(repoRoot, file.fileName), exports })
    }
  }
  return modules
}

/**
 * GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as hyphens, and
 * `-1`, `-2`... on repeats (`MetricValue.defined` and `MetricValue.Defined` are both headings).
 */
const slugger = () => {
  const seen = new Map<string, number>()
  return (heading: string): string => {
    const base = heading.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-")
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    return n === 0 ? base : `${base}-${n}`
  }
}

/** docs/api/: `README.md` (the packages and their modules) and one `<package>.md` per package. */
export const markdown = (modules: ReadonlyArray<Module> = reference()): ReadonlyMap<string, string> => {
  const files = new Map<string, string>()
  const pkgs = packages()
  const header = "<!-- Generated from the sources' doc comments by tooling/docgen (`pnpm docs:api`); do not edit. -->\n\n"
  const index: Array<string> = [
    `${header}# API reference`,
    "",
    "Every module of the library packages and every function, constant, type and class it exports, from the",
    "doc comments in the sources. Each `@example` is type-checked by a test (tooling/docgen). The executables",
    "are documented in [docs/cli.md](../cli.md), [docs/report.md](../report.md) and [docs/watch.md](../watch.md).",
    ""
  ]
  for (const pkg of pkgs) {
    const mods = modules.filter((m) => m.package === pkg.name)
    const short = pkg.name.replace("@stseval/", "")
    // the page's anchors, in the order of its headings (# package, ## module, ### module.export)
    const slug = slugger()
    slug(pkg.name)
    const anchors = new Map<string, string>()
    for (const m of mods) {
      anchors.set(m.name, slug(m.name))
      for (const e of m.exports) anchors.set(`${m.name}.${e.name}`, slug(`${m.name}.${e.name}`))
    }
    index.push(`## [${pkg.name}](${short}.md)`, "", pkg.description, "", mods.map((m) => `[${m.name}](${short}.md#${anchors.get(m.name)})`).join(" · "), "")
    const out: Array<string> = [`${header}# ${pkg.name}`, "", pkg.description, "", `\`npm i ${pkg.name}\` · [README](../../packages/${short}/README.md) · [all packages](README.md)`, ""]
    out.push("| module | exports |", "|---|---|")
    for (const m of mods) out.push(`| [${m.name}](#${anchors.get(m.name)}) | ${m.exports.map((e) => `[${e.name}](#${anchors.get(`${m.name}.${e.name}`)})`).join(", ")} |`)
    out.push("")
    for (const m of mods) {
      out.push(`## ${m.name}`, "", `\`import { ${m.name} } from "${pkg.name}"\` · [${m.file}](../../${m.file})`, "")
      if (m.description !== "") out.push(m.description, "")
      for (const e of m.exports) {
        // no line numbers: an edit above an export must not make the reference stale
        out.push(`### ${m.name}.${e.name}`, "", `${e.kind}${e.since !== undefined ? ` · since ${e.since}` : ""} · [source](../../${e.file})`, "")
        if (e.description !== "") out.push(e.description, "")
        out.push("```ts", e.signature, "```", "")
        for (const example of e.examples) out.push("Example:", "", "```ts", example, "```", "")
      }
    }
    files.set(`${short}.md`, `${out.join("\n").trimEnd()}\n`)
  }
  files.set("README.md", `${index.join("\n").trimEnd()}\n`)
  return files
}

/** What `checkExamples` finds. */
export interface ExampleCheck {
  /** examples that do not type-check: where, and the compiler's messages */
  readonly errors: ReadonlyArray<{ readonly export: string; readonly file: string; readonly messages: ReadonlyArray<string> }>
  /**
   * functions and classes without an `@example`, and other exports without a description, as
   * `@stseval/metrics Pearson.pearson (packages/metrics/src/Pearson.ts:223)`
   */
  readonly missing: ReadonlyArray<string>
  readonly checked: number
}

/**
 * Functions and classes (the callable API) need an example; a type, interface or constant needs a
 * description, not an example: its declaration, shown beside it, already says what it holds.
 */
const callable = (e: Export): boolean =>
  e.kind === "function" || e.kind === "class" || (e.kind === "constant" && /^export declare const \w+: (<[^>]*>)?\(/.test(e.signature))

/**
 * Type-check every example, each a module of its own in its package's folder (not written to
 * disk), in one program with the packages' sources.
 */
export const checkExamples = (modules: ReadonlyArray<Module> = reference()): ExampleCheck => {
  const pkgDir = new Map(packages().map((p) => [p.name, p.dir]))
  const virtual = new Map<string, { readonly text: string; readonly export: string }>()
  const missing: Array<string> = []
  for (const m of modules) {
    for (const e of m.exports) {
      const id = `${e.package} ${m.name}.${e.name}`
      if (callable(e) ? e.examples.length === 0 : e.description.trim() === "") missing.push(`${id} (${e.file}:${e.line})`)
      e.examples.forEach((example, i) => {
        const file = path.join(pkgDir.get(e.package) ?? repoRoot, "test", `.api-example.${m.name}.${e.name}.${i + 1}.ts`)
        // a module of its own (top-level await, no clash between examples)
        virtual.set(file, { text: `${example}\nexport {}\n`, export: id })
      })
    }
  }
  const options = compilerOptions()
  const host = ts.createCompilerHost(options)
  const real = { fileExists: host.fileExists.bind(host), readFile: host.readFile.bind(host), getSourceFile: host.getSourceFile.bind(host) }
  host.fileExists = (f) => virtual.has(f) || real.fileExists(f)
  host.readFile = (f) => virtual.get(f)?.text ?? real.readFile(f)
  host.getSourceFile = (f, language, onError, create) => {
    const v = virtual.get(f)
    return v !== undefined ? ts.createSourceFile(f, v.text, language, true) : real.getSourceFile(f, language, onError, create)
  }
  // the sources' files are reused from the reference's program: only the examples are new
  const program = ts.createProgram([...virtual.keys()], options, host, sourcesProgram())
  const errors: Array<{ export: string; file: string; messages: Array<string> }> = []
  for (const [file, v] of virtual) {
    const source = program.getSourceFile(file)
    if (source === undefined) continue
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]
    if (diagnostics.length === 0) continue
    errors.push({
      export: v.export,
      file: path.relative(repoRoot, file),
      messages: diagnostics.map((d) => {
        const where = d.start !== undefined ? source.getLineAndCharacterOfPosition(d.start) : undefined
        return `${where !== undefined ? `line ${where.line + 1}: ` : ""}${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`
      })
    })
  }
  return { errors, missing, checked: virtual.size }
}

/** `pnpm docs:api`: write docs/api/ from the sources. */
export const write = (): ReadonlyArray<string> => {
  const dir = path.join(repoRoot, "docs/api")
  fs.mkdirSync(dir, { recursive: true })
  const files = markdown()
  for (const name of fs.readdirSync(dir)) if (name.endsWith(".md") && !files.has(name)) fs.rmSync(path.join(dir, name))
  for (const [name, text] of files) fs.writeFileSync(path.join(dir, name), text)
  return [...files.keys()]
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const written = write()
  process.stdout.write(`docs/api: ${written.join(", ")}\n`)
}
