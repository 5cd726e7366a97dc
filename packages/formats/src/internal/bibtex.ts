/**
 * One BibTeX entry, as an edition's `citation` gives its paper: read enough to check it (a type,
 * a key, a title, a year, authors or editors) and to say it in a line under a table ("Agirre et
 * al. (2015), SemEval-2015 Task 2: ..."). Not a BibTeX implementation: no `@string` macros, no
 * concatenation with `#`; the entry itself is written out as given (the `.bib` beside LaTeX).
 */

export interface Entry {
  readonly type: string
  readonly key: string
  /** field names lower-cased, values without their outer braces or quotes */
  readonly fields: Readonly<Record<string, string>>
}

export type Parsed = { readonly _tag: "ok"; readonly entry: Entry } | { readonly _tag: "error"; readonly reason: string }

const error = (reason: string): Parsed => ({ _tag: "error", reason })

/** The value at `i` (braced, quoted or bare) and the index after it. */
const value = (text: string, i: number): { readonly value: string; readonly end: number } | undefined => {
  if (text[i] === "{") {
    let depth = 0
    for (let j = i; j < text.length; j++) {
      if (text[j] === "\\") j++
      else if (text[j] === "{") depth++
      else if (text[j] === "}" && --depth === 0) return { value: text.slice(i + 1, j), end: j + 1 }
    }
    return undefined
  }
  if (text[i] === '"') {
    let depth = 0
    for (let j = i + 1; j < text.length; j++) {
      if (text[j] === "\\") j++
      else if (text[j] === "{") depth++
      else if (text[j] === "}") depth--
      else if (text[j] === '"' && depth === 0) return { value: text.slice(i + 1, j), end: j + 1 }
    }
    return undefined
  }
  const bare = /^[A-Za-z0-9_.:-]+/.exec(text.slice(i))
  return bare === null ? undefined : { value: bare[0], end: i + bare[0].length }
}

/** Read one entry; what is wrong in a sentence otherwise. */
export const parse = (text: string): Parsed => {
  const head = /^\s*@([A-Za-z]+)\s*\{\s*([^\s,{}]+)\s*,/.exec(text)
  if (head === null) return error("expected one BibTeX entry, @type{key, field = {value}, ...}")
  const fields: Record<string, string> = {}
  let i = head[0].length
  for (;;) {
    const name = /^\s*([A-Za-z][A-Za-z0-9_-]*)\s*=\s*/.exec(text.slice(i))
    if (name === null) break
    i += name[0].length
    const v = value(text, i)
    if (v === undefined) return error(`the value of ${name[1]} is not closed`)
    fields[name[1].toLowerCase()] = v.value.replace(/\s+/g, " ").trim()
    i = v.end
    const comma = /^\s*,/.exec(text.slice(i))
    if (comma === null) break
    i += comma[0].length
  }
  const close = /^\s*\}\s*$/.exec(text.slice(i))
  if (close === null) return error("expected the entry to end with } after its last field (one entry only)")
  for (const required of ["title", "year"]) if (fields[required] === undefined) return error(`the entry has no ${required}`)
  if (fields.author === undefined && fields.editor === undefined) return error("the entry has no author (or editor)")
  return { _tag: "ok", entry: { type: head[1].toLowerCase(), key: head[2], fields } }
}

const ACCENTS: Readonly<Record<string, string>> = { "'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304", ".": "\u0307", u: "\u0306", v: "\u030c", c: "\u0327", H: "\u030b", k: "\u0328" }

/** BibTeX text as plain text: accents as Unicode (`{\~n}`, `\'{a}`, `{\u{g}}`), braces and `--` dropped. */
export const plain = (text: string): string =>
  text
    .replace(/\\([`'^"~=.uvcHk])\s*\{?\s*(\\?[A-Za-z])\s*\}?/g, (_, accent: string, letter: string) => `${letter.replace(/^\\/, "")}${ACCENTS[accent] ?? ""}`)
    .replace(/\\&/g, "&")
    .replace(/---?/g, "\u2013")
    .replace(/[{}]/g, "")
    .normalize("NFC")
    .replace(/\s+/g, " ")
    .trim()

const surname = (person: string): string => {
  const p = person.trim()
  if (p.includes(",")) return p.slice(0, p.indexOf(",")).trim()
  const words = p.split(/\s+/)
  return words[words.length - 1]
}

/** "Agirre et al. (2015)" (one author: "Cer (2017)", two: "Cer and Diab (2017)"). */
export const shortCite = (entry: Entry): string => {
  const people = plain(entry.fields.author ?? entry.fields.editor ?? "").split(/\s+and\s+/).filter((p) => p !== "")
  const names = people.length === 1 ? surname(people[0]) : people.length === 2 ? `${surname(people[0])} and ${surname(people[1])}` : `${surname(people[0])} et al.`
  return `${names} (${plain(entry.fields.year ?? "")})`
}

/** The line under a table: "Agirre et al. (2015), SemEval-2015 Task 2: ...". */
export const line = (entry: Entry): string => `${shortCite(entry)}, ${plain(entry.fields.title ?? "")}`
