/**
 * A JSON document written in pieces: the text of `JSON.stringify(value, null, 2)`, character for
 * character, as whole lines of about `size` characters at most, so a long document (2,000 runs'
 * `rank --ci 95 --json`: 4.8 MB) never stands as one string, nor as the bytes written from it.
 *
 * The document's first two levels (its members, and the members of those) are laid out here; each
 * value below them is `JSON.stringify(v, null, 2)` with every line break followed by the depth's
 * indentation, which is what JSON.stringify writes for a nested value (a JSON string never holds a
 * raw line break: it is escaped as `\n`). A value with its own `toJSON` is never split, but for a
 * `Lazy` array, whose elements are made one at a time as they are written.
 */

/** Characters per piece, about: a piece is whole lines, at most this and one line long. */
export const PIECE = 1 << 16

/**
 * An array whose elements are made as `lines` writes them, each then left to the collector: a long
 * document's runs are never all held at once. JSON.stringify writes it whole (`toJSON`).
 */
export class Lazy {
  constructor(readonly length: number, readonly at: (i: number) => unknown) {}
  toJSON(): Array<unknown> {
    return Array.from({ length: this.length }, (_, i) => this.at(i))
  }
}

const splittable = (v: unknown): v is object =>
  v instanceof Lazy || (typeof v === "object" && v !== null && typeof (v as { toJSON?: unknown }).toJSON !== "function")

/** The lines of `value` at `depth` (2 spaces each), in order, as JSON.stringify(…, null, 2) lays them out. */
function* parts(value: unknown, depth: number, levels: number): Generator<string> {
  const pad = "  ".repeat(depth)
  if (levels === 0 || !splittable(value)) {
    // indented by JSON.stringify itself, inside `depth` arrays it is then cut out of ("[\n  " and
    // "\n]" around each level): not a second pass that indents it (2,000 runs: 10 ms against 14)
    let nested = value
    for (let d = 0; d < depth; d++) nested = [nested]
    const text = JSON.stringify(nested, null, 2)
    yield depth === 0 ? text : text.slice(depth * (depth + 3), text.length - depth * (depth + 1))
    return
  }
  const inner = `${pad}  `
  const array = Array.isArray(value) || value instanceof Lazy
  const keys = array ? undefined : Object.keys(value)
  const length = keys?.length ?? (value as ArrayLike<unknown>).length
  let first = true
  for (let i = 0; i < length; i++) {
    const key = keys?.[i]
    const v = value instanceof Lazy ? value.at(i) : key === undefined ? (value as ArrayLike<unknown>)[i] : (value as Record<string, unknown>)[key]
    // members JSON leaves out (undefined, functions, symbols); in an array they are null
    const absent = v === undefined || typeof v === "function" || typeof v === "symbol"
    if (absent && !array) continue
    yield `${first ? (array ? "[" : "{") : ","}\n${inner}${key !== undefined ? `${JSON.stringify(key)}: ` : ""}`
    first = false
    if (absent) yield "null"
    else yield* parts(v, depth + 1, levels - 1)
  }
  yield first ? (array ? "[]" : "{}") : `\n${pad}${array ? "]" : "}"}`
}

/**
 * `JSON.stringify(value, null, 2)` in pieces of whole lines (no piece ends with its line break:
 * each is meant for one `Console.log`, which adds it), together exactly the document.
 */
export function* lines(value: unknown, size: number = PIECE): Generator<string> {
  let held = ""
  for (const part of parts(value, 0, 2)) {
    held += part
    // cut at the first line break from `size` on (else the last one before it): a piece is at most
    // `size` and a line long
    while (held.length >= size) {
      let cut = held.indexOf("\n", size - 1)
      if (cut < 0) cut = held.lastIndexOf("\n")
      if (cut < 0) break
      yield held.slice(0, cut)
      held = held.slice(cut + 1)
    }
  }
  yield held
}
