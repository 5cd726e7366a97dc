/**
 * `node:fs` and `node:fs/promises` in the browser build of the check page: the calls formats makes
 * (`internal/calls.ts`: stat, lstat, open, realpath, readlink; the read of an open file), answered
 * from the dropped files (`Vfs`). There are no links, devices or other users: every entry is a
 * regular file or a folder, and its real path is its path.
 */
import * as Vfs from "../Vfs.js"

const stats = (node: Vfs.Node) => {
  const size = node.kind === "file" ? node.size : 0
  return {
    dev: 1,
    ino: node.ino,
    size,
    mode: node.kind === "file" ? 0o100644 : 0o40755,
    mtimeMs: 0,
    mtime: new Date(0),
    isFile: () => node.kind === "file",
    isDirectory: () => node.kind === "dir",
    isSymbolicLink: () => false,
    isFIFO: () => false,
    isCharacterDevice: () => false,
    isBlockDevice: () => false,
    isSocket: () => false
  }
}

const bigStats = (node: Vfs.Node) => ({ ...stats(node), dev: 1n, ino: BigInt(node.ino), size: BigInt(node.kind === "file" ? node.size : 0) })

const found = (path: string, syscall: string): Vfs.Node => {
  const node = Vfs.lookup(path)
  if (node === undefined) throw Vfs.errno("ENOENT", syscall, path)
  return node
}

export const statSync = (path: string, options?: { readonly bigint?: boolean; readonly throwIfNoEntry?: boolean }) => {
  const node = Vfs.lookup(path)
  if (node === undefined) {
    if (options?.throwIfNoEntry === false) return undefined
    throw Vfs.errno("ENOENT", "stat", path)
  }
  return options?.bigint === true ? bigStats(node) : stats(node)
}
export const lstatSync = statSync
export const realpathSync = Object.assign((path: string) => (found(path, "realpath"), Vfs.normal(path)), { native: (path: string) => (found(path, "realpath"), Vfs.normal(path)) })
export const readlinkSync = (path: string): string => {
  throw Object.assign(Vfs.errno("ENOENT", "readlink", path), { code: "EINVAL" })
}
export const readdirSync = (path: string): Array<string> => {
  const names = Vfs.list(path)
  if (names === undefined) throw Vfs.errno("ENOTDIR", "scandir", path)
  return [...names]
}

/** Open files: a descriptor is the node and how far it has been read. */
const open = new Map<number, { readonly node: Vfs.Node; position: number }>()
let nextFd = 3

export const openSync = (path: string): number => {
  const node = found(path, "open")
  const fd = nextFd++
  open.set(fd, { node, position: 0 })
  return fd
}
const held = (fd: number) => {
  const file = open.get(fd)
  if (file === undefined) throw Object.assign(new Error(`EBADF: bad file descriptor ${fd}`), { code: "EBADF" })
  return file
}
export const fstatSync = (fd: number, options?: { readonly bigint?: boolean }) => (options?.bigint === true ? bigStats(held(fd).node) : stats(held(fd).node))
export const readSync = (fd: number, buffer: Uint8Array, offset: number, length: number): number => {
  const file = held(fd)
  if (file.node.kind !== "file") throw Vfs.errno("EISDIR", "read", String(fd))
  const chunk = file.node.bytes.subarray(file.position, file.position + length)
  buffer.set(chunk, offset)
  file.position += chunk.length
  return chunk.length
}
export const closeSync = (fd: number): void => {
  open.delete(fd)
}

const promised = <A>(call: () => A): Promise<A> => {
  try {
    return Promise.resolve(call())
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)))
  }
}

export const constants = { O_RDONLY: 0, O_NONBLOCK: 0, O_NOCTTY: 0, O_NOFOLLOW: 0 }

export const promises = {
  stat: (path: string, options?: { readonly bigint?: boolean }) => promised(() => statSync(path, options)),
  lstat: (path: string, options?: { readonly bigint?: boolean }) => promised(() => statSync(path, options)),
  realpath: (path: string) => promised(() => realpathSync(path)),
  readlink: (path: string) => promised(() => readlinkSync(path)),
  readdir: (path: string) => promised(() => readdirSync(path)),
  open: (path: string) =>
    promised(() => {
      const fd = openSync(path)
      return {
        fd,
        stat: (options?: { readonly bigint?: boolean }) => promised(() => fstatSync(fd, options)),
        read: (buffer: Uint8Array, offset: number, length: number) => promised(() => ({ bytesRead: readSync(fd, buffer, offset, length) })),
        close: () => promised(() => closeSync(fd))
      }
    }),
  // nothing is written by the page: these exist only because formats imports them
  mkdir: () => Promise.reject(new Error("the check page writes no file")),
  writeFile: () => Promise.reject(new Error("the check page writes no file")),
  opendir: () => Promise.reject(new Error("the check page lists folders through FileSystem"))
}
export const { stat, lstat, realpath, readlink, readdir, mkdir, writeFile, opendir } = promises
export default { statSync, lstatSync, realpathSync, readlinkSync, readdirSync, openSync, fstatSync, readSync, closeSync, constants, promises }
