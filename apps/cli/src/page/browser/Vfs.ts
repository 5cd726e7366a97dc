/**
 * The files a participant dropped on the check page (and the edition and gold the page embeds),
 * held in memory as a file tree: what the browser build's `node:fs` and Effect `FileSystem` read,
 * so that formats' own run loading (`Submissions`, `Files.readFile` and its checks) runs unchanged.
 * Paths are POSIX, absolute from `/`; a relative path is taken from `/` (the page's working folder).
 */
export type Node =
  | {
      readonly kind: "file"
      readonly bytes: Uint8Array
      /** the file's size: its bytes' length, or the size of a file the page did not read (over the CLI's limit, which the read then refuses as the CLI does) */
      readonly size: number
      readonly ino: number
    }
  | { readonly kind: "dir"; readonly ino: number }

const tree = new Map<string, Node>([["/", { kind: "dir", ino: 1 }]])
let inodes = 1

/** `path` made absolute and normal (`.`, `..` and repeated slashes removed). */
export const normal = (path: string): string => {
  const out: Array<string> = []
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue
    if (part === "..") out.pop()
    else out.push(part)
  }
  return `/${out.join("/")}`
}

const parentOf = (path: string): string => normal(`${path}/..`)

/** Add a file (and the folders above it). */
export const addFile = (path: string, bytes: Uint8Array, size = bytes.length): void => {
  const p = normal(path)
  addDir(parentOf(p))
  tree.set(p, { kind: "file", bytes, size, ino: ++inodes })
}

/** Add a folder (and the folders above it). */
export const addDir = (path: string): void => {
  const p = normal(path)
  if (tree.get(p)?.kind === "dir") return
  if (p !== "/") addDir(parentOf(p))
  tree.set(p, { kind: "dir", ino: ++inodes })
}

/** Forget every file under `path` (a new drop replaces the last one). */
export const remove = (path: string): void => {
  const p = normal(path)
  for (const key of [...tree.keys()]) if (key === p || key.startsWith(`${p}/`)) tree.delete(key)
}

export const lookup = (path: string): Node | undefined => tree.get(normal(path))

/** A folder's entry names, or undefined when `path` is no folder. */
export const list = (path: string): ReadonlyArray<string> | undefined => {
  const p = normal(path)
  if (tree.get(p)?.kind !== "dir") return undefined
  const prefix = p === "/" ? "/" : `${p}/`
  const names: Array<string> = []
  for (const key of tree.keys()) if (key !== p && key.startsWith(prefix) && !key.slice(prefix.length).includes("/")) names.push(key.slice(prefix.length))
  return names
}

/** A Node-style error (`code`), as `node:fs` rejects with. */
export const errno = (code: "ENOENT" | "ENOTDIR" | "EISDIR", syscall: string, path: string): Error =>
  Object.assign(new Error(`${code}: ${syscall} '${path}'`), { code, syscall, path })
