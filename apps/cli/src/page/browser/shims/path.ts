/**
 * `node:path` in the check page's browser build: POSIX paths from the page's working folder `/`
 * (the dropped files' tree, `Vfs`).
 */
import { normal } from "../Vfs.js"

export const sep = "/"
export const delimiter = ":"
export const isAbsolute = (p: string): boolean => p.startsWith("/")
export const normalize = (p: string): string => {
  if (p === "") return "."
  const abs = isAbsolute(p)
  const out: Array<string> = []
  for (const part of p.split("/")) {
    if (part === "" || part === ".") continue
    if (part === ".." && out.length > 0 && out[out.length - 1] !== "..") out.pop()
    else if (part !== ".." || !abs) out.push(part)
  }
  const body = out.join("/")
  const trailing = p.endsWith("/") ? "/" : ""
  if (abs) return body === "" ? "/" : `/${body}${trailing}`
  return body === "" ? `.${trailing}` : `${body}${trailing}`
}
export const join = (...parts: ReadonlyArray<string>): string => {
  const joined = parts.filter((x) => x !== "").join("/")
  return joined === "" ? "." : normalize(joined)
}
export const resolve = (...parts: ReadonlyArray<string>): string => {
  let out = ""
  for (const part of parts) if (part !== "") out = isAbsolute(part) ? part : `${out}/${part}`
  return normal(out)
}
export const dirname = (p: string): string => {
  const trimmed = p.length > 1 ? p.replace(/\/+$/, "") : p
  const at = trimmed.lastIndexOf("/")
  return at === -1 ? "." : at === 0 ? "/" : trimmed.slice(0, at)
}
export const basename = (p: string, ext?: string): string => {
  const trimmed = p.length > 1 ? p.replace(/\/+$/, "") : p
  const base = trimmed.slice(trimmed.lastIndexOf("/") + 1)
  return ext !== undefined && base.endsWith(ext) && base !== ext ? base.slice(0, -ext.length) : base
}
export const extname = (p: string): string => {
  const base = basename(p)
  const at = base.lastIndexOf(".")
  return at <= 0 || base === ".." ? "" : base.slice(at)
}
export const relative = (from: string, to: string): string => {
  const a = resolve(from).split("/").filter((x) => x !== "")
  const b = resolve(to).split("/").filter((x) => x !== "")
  let i = 0
  while (i < a.length && i < b.length && a[i] === b[i]) i++
  return [...a.slice(i).map(() => ".."), ...b.slice(i)].join("/")
}
export const parse = (p: string) => {
  const base = basename(p)
  const ext = extname(p)
  return { root: isAbsolute(p) ? "/" : "", dir: dirname(p), base, ext, name: ext === "" ? base : base.slice(0, -ext.length) }
}
export const format = (o: { readonly dir?: string; readonly base?: string }): string => (o.dir !== undefined && o.dir !== "" ? `${o.dir}/${o.base ?? ""}` : (o.base ?? ""))
export const toNamespacedPath = (p: string): string => p

const api = { sep, delimiter, isAbsolute, normalize, join, resolve, dirname, basename, extname, relative, parse, format, toNamespacedPath }
export const posix = api
export default { ...api, posix: api }
