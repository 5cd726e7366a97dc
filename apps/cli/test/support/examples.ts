/**
 * The command examples of the docs and of `--help`, as examples.test.ts runs them. The convention
 * (docs/cli.md, "Examples in these docs"):
 *
 * - An example is a line of a fenced ```sh block that runs `stseval` — written `stseval`, `pnpm
 *   stseval`, `npx -y pnpm@<version> stseval` or `node apps/cli/dist/stseval.mjs` — or a line of an
 *   EXAMPLES section of `--help`. A `\` at the end of a line continues it; `#` starts a comment;
 *   `NAME=value` assignments (separated by `;`) set variables the later lines use as `$NAME`.
 * - A block preceded by `<!-- not run: <reason> -->` is not run (the reason is reported); one
 *   preceded by `<!-- run by: <test file> -->` is run by that test. Any other ```sh block must hold
 *   only examples and assignments.
 * - A line with a `<placeholder>` is a synopsis, not run (counted and reported).
 * - An example naming a path under `data/` needs the public data (the shared data in the tests), and
 *   so does one of a block preceded by `<!-- needs: data store -->` (it reads the gold or inputs
 *   from the data store); without the shared data they are skipped, and said so.
 * - An example ends with exit 0 unless its comment (in `--help`, its description) says `exit <n>`.
 * - Outside ```sh blocks, a fenced line that starts with `stseval ` must be a synopsis (a
 *   `<placeholder>`), so that no example escapes the test.
 */
import { parse } from "shell-quote"

/** Where an example was written. */
export interface Source {
  readonly file: string
  readonly line: number
}

export type Example =
  | {
    readonly kind: "run"
    readonly source: Source
    readonly text: string
    /** the arguments of `stseval` */
    readonly args: ReadonlyArray<string>
    readonly exit: number
    readonly needsData: boolean
  }
  | { readonly kind: "not-run"; readonly source: Source; readonly text: string; readonly reason: string }
  | { readonly kind: "run-by"; readonly source: Source; readonly text: string; readonly test: string }

/** A line of a document the convention refuses, and why. */
export interface Problem {
  readonly source: Source
  readonly problem: string
}

export interface Extracted {
  readonly examples: ReadonlyArray<Example>
  readonly problems: ReadonlyArray<Problem>
}

const PLACEHOLDER = /<[A-Za-z][^<>]*>/

/** `stseval`'s launchers: what a line may start with (`pnpmVersion`: the repository's pnpm). */
const launchers = (pnpmVersion: string): ReadonlyArray<ReadonlyArray<string>> => [
  ["stseval"],
  ["pnpm", "stseval"],
  ["npx", "-y", `pnpm@${pnpmVersion}`, "stseval"],
  ["node", "apps/cli/dist/stseval.mjs"]
]

/** The arguments after a launcher, or undefined when `words` do not start with one. */
const afterLauncher = (words: ReadonlyArray<string>, pnpmVersion: string): ReadonlyArray<string> | undefined => {
  for (const l of launchers(pnpmVersion)) {
    if (l.every((w, i) => words[i] === w)) return words.slice(l.length)
  }
  return undefined
}

/** The exit code a comment says (`exit 1: ...`), else 0. */
const exitOf = (comment: string): number => Number(/\bexit (\d+)\b/.exec(comment)?.[1] ?? 0)

type Token = ReturnType<typeof parse>[number]

/**
 * One logical line of a shell example: its commands (split on `;`), each as words, with the
 * variables set so far expanded (a variable holding spaces is split into words, as the shell does
 * unquoted), and the comment. A token the in-process runner cannot do (a pipe, a redirection, a
 * glob) is a problem.
 */
const shellLine = (
  text: string,
  vars: Map<string, string>
): { readonly commands: ReadonlyArray<ReadonlyArray<string>>; readonly comment: string; readonly problem?: string } => {
  const unknown: Array<string> = []
  const tokens: ReadonlyArray<Token> = parse(text, (name: string) => {
    const value = vars.get(name)
    if (value === undefined) unknown.push(name)
    // a marker the expansion below splits on whitespace (shell-quote returns a variable as one word)
    return `\uE000${value ?? ""}\uE000`
  })
  if (unknown.length > 0) return { commands: [], comment: "", problem: `unknown variable $${unknown.join(", $")}` }
  const commands: Array<Array<string>> = [[]]
  let comment = ""
  for (const t of tokens) {
    if (typeof t === "string") {
      const current = commands[commands.length - 1]
      if (/^\uE000[^\uE000]*\uE000$/.test(t)) {
        // a word that is one variable: the shell splits it into words (`$S tasks`); an empty one disappears
        current.push(...t.slice(1, -1).split(/\s+/).filter((w) => w !== ""))
      } else current.push(t.replaceAll("\uE000", ""))
    } else if ("comment" in t) comment = t.comment
    else if ("op" in t && t.op === ";") commands.push([])
    else return { commands: [], comment: "", problem: `"${"op" in t ? t.op === "glob" ? t.pattern : t.op : "?"}": the examples are run without a shell` }
  }
  return { commands: commands.filter((c) => c.length > 0), comment }
}

/** The fenced blocks of a Markdown text: language, first line number, lines, and the HTML comment just before it. */
const fences = (markdown: string) => {
  const lines = markdown.split("\n")
  const blocks: Array<{ lang: string; start: number; lines: Array<string>; marker: string | undefined; markerLine: number }> = []
  for (let i = 0; i < lines.length; i++) {
    const open = /^( *)(`{3,})(\S*)/.exec(lines[i])
    if (open === null) continue
    const [, indent, ticks, lang] = open
    let j = i + 1
    while (j < lines.length && !lines[j].startsWith(`${indent}${ticks}`)) j++
    let k = i - 1
    while (k >= 0 && lines[k].trim() === "") k--
    const marker = k >= 0 ? /^\s*<!--\s*(.*?)\s*-->\s*$/.exec(lines[k])?.[1] : undefined
    blocks.push({ lang, start: i + 2, lines: lines.slice(i + 1, j).map((l) => l.slice(indent.length)), marker, markerLine: k + 1 })
    i = j
  }
  return blocks
}

/**
 * The examples of a Markdown document (`file` is its path as reported), by the convention above.
 *
 * @since 0.2.0
 * @example
 * const { examples } = extractMarkdown("x.md", "```sh\nstseval tasks\n```\n", "12.21.0")
 * examples[0].kind // "run"
 */
export const extractMarkdown = (file: string, markdown: string, pnpmVersion: string): Extracted => {
  const examples: Array<Example> = []
  const problems: Array<Problem> = []
  for (const block of fences(markdown)) {
    if (block.lang !== "sh") {
      block.lines.forEach((l, i) => {
        if (/^(\$ )?stseval /.test(l.trim()) && !PLACEHOLDER.test(l)) {
          problems.push({ source: { file, line: block.start + i }, problem: "a stseval command outside a ```sh block (put examples in ```sh blocks; synopses have <placeholders>)" })
        }
      })
      continue
    }
    const notRun = block.marker !== undefined ? /^not run:\s*(.+)$/.exec(block.marker)?.[1] : undefined
    const runBy = block.marker !== undefined ? /^run by:\s*(\S+)$/.exec(block.marker)?.[1] : undefined
    const needsStore = block.marker === "needs: data store"
    if (block.marker !== undefined && notRun === undefined && runBy === undefined && !needsStore) {
      problems.push({ source: { file, line: block.markerLine }, problem: `unknown marker <!-- ${block.marker} --> (not run: <reason>, run by: <test file>, needs: data store)` })
    }
    const vars = new Map<string, string>()
    // logical lines: a trailing backslash continues the line
    for (let i = 0; i < block.lines.length; i++) {
      const line = block.start + i
      let text = block.lines[i]
      while (text.endsWith("\\") && i + 1 < block.lines.length) text = `${text.slice(0, -1).trimEnd()} ${block.lines[++i].trim()}`
      if (text.trim() === "" || text.trim().startsWith("#")) continue
      const source = { file, line }
      if (notRun !== undefined) {
        examples.push({ kind: "not-run", source, text: text.trim(), reason: notRun })
        continue
      }
      if (runBy !== undefined) {
        examples.push({ kind: "run-by", source, text: text.trim(), test: runBy })
        continue
      }
      if (PLACEHOLDER.test(text)) {
        examples.push({ kind: "not-run", source, text: text.trim(), reason: "a synopsis (it has a <placeholder>)" })
        continue
      }
      const parsed = shellLine(text, vars)
      if (parsed.problem !== undefined) {
        problems.push({ source, problem: parsed.problem })
        continue
      }
      for (const words of parsed.commands) {
        const assignment = words.length === 1 ? /^([A-Za-z_]\w*)=(.*)$/s.exec(words[0]) : null
        if (assignment !== null) {
          vars.set(assignment[1], assignment[2])
          continue
        }
        const args = afterLauncher(words, pnpmVersion)
        if (args === undefined) {
          problems.push({ source, problem: `"${words.join(" ")}" does not run stseval: mark the block <!-- not run: <reason> --> or <!-- run by: <test> -->` })
          continue
        }
        examples.push({
          kind: "run",
          source,
          text: text.trim(),
          args,
          exit: exitOf(parsed.comment),
          needsData: needsStore || args.some((a) => /^data\//.test(a) || /^--[\w-]+=data\//.test(a))
        })
      }
    }
  }
  return { examples, problems }
}

/**
 * The examples of one `--help` text (its EXAMPLES section: `# description` lines, then the
 * command), by the same convention; `command` names the help (`stseval codabench bundle`).
 *
 * @since 0.2.0
 * @example
 * extractHelp("stseval tasks", "EXAMPLES\n  # all\n  stseval tasks --json\n", "12.21.0").examples.length // 1
 */
export const extractHelp = (command: string, help: string, pnpmVersion: string): Extracted => {
  const lines = help.split("\n")
  const at = lines.findIndex((l) => l.trim() === "EXAMPLES")
  if (at < 0) return { examples: [], problems: [] }
  const entries = lines.slice(at + 1).map((l, i) => ({ text: l.trim(), line: at + 2 + i })).filter((l) => l.text !== "")
  // each command with the `# description` line before it (where its exit code is said)
  const commands = entries.flatMap((l, i) => l.text.startsWith("#") ? [] : [{ ...l, description: entries[i - 1]?.text.startsWith("#") === true ? entries[i - 1].text : "" }])
  const examples: Array<Example> = []
  const problems: Array<Problem> = []
  for (const c of commands) {
    const source = { file: `${command} --help`, line: c.line }
    if (PLACEHOLDER.test(c.text)) {
      examples.push({ kind: "not-run", source, text: c.text, reason: "a synopsis (it has a <placeholder>)" })
      continue
    }
    const parsed = shellLine(c.text, new Map())
    const args = parsed.commands.length === 1 ? afterLauncher(parsed.commands[0], pnpmVersion) : undefined
    if (parsed.problem !== undefined || args === undefined) {
      problems.push({ source, problem: parsed.problem ?? `"${c.text}" is not one stseval command` })
      continue
    }
    examples.push({ kind: "run", source, text: c.text, args, exit: exitOf(c.description), needsData: args.some((a) => a.startsWith("data/")) })
  }
  return { examples, problems }
}
