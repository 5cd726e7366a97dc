/**
 * Effect's `FileSystem` over the dropped files (`Vfs`): the calls the engine and formats make
 * through the service (`stat`, `exists`, `readDirectory`, `readFile`, `realPath`), the others
 * failing as "not found" (`FileSystem.makeNoop`). With `Path.layer` (POSIX) it is the whole
 * platform the packages need in the page.
 */
import { ByteSize, Effect, FileSystem, Layer, Option, PlatformError } from "effect"
import * as Vfs from "./Vfs.js"

const missing = (method: string, path: string) =>
  PlatformError.systemError({ _tag: "NotFound", module: "FileSystem", method, pathOrDescriptor: path, description: "no such file or folder" })

const info = (node: Vfs.Node): FileSystem.File.Info => ({
  type: node.kind === "file" ? "File" : "Directory",
  mtime: Option.none(),
  atime: Option.none(),
  birthtime: Option.none(),
  dev: 1n,
  ino: Option.some(BigInt(node.ino)),
  mode: node.kind === "file" ? 0o100644 : 0o40755,
  nlink: Option.none(),
  uid: Option.none(),
  gid: Option.none(),
  rdev: Option.none(),
  size: ByteSize.bytes(node.kind === "file" ? node.size : 0),
  blksize: Option.none(),
  blocks: Option.none()
})

const node = (method: string, path: string) => {
  const found = Vfs.lookup(path)
  return found === undefined ? Effect.fail(missing(method, path)) : Effect.succeed(found)
}

const bytesOf = (method: string, path: string) =>
  Effect.flatMap(node(method, path), (n) =>
    n.kind === "file" ? Effect.succeed(n.bytes) : Effect.fail(PlatformError.systemError({ _tag: "BadResource", module: "FileSystem", method, pathOrDescriptor: path, description: "is a folder" }))
  )

export const fileSystem: FileSystem.FileSystem = FileSystem.makeNoop({
  exists: (path) => Effect.succeed(Vfs.lookup(path) !== undefined),
  access: (path) => Effect.asVoid(node("access", path)),
  stat: (path) => Effect.map(node("stat", path), info),
  lstat: (path) => Effect.map(node("lstat", path), info),
  realPath: (path) => Effect.as(node("realPath", path), Vfs.normal(path)),
  readDirectory: (path) => {
    const names = Vfs.list(path)
    return names === undefined ? Effect.fail(missing("readDirectory", path)) : Effect.succeed([...names])
  },
  readFile: (path) => bytesOf("readFile", path),
  readFileString: (path) => Effect.map(bytesOf("readFileString", path), (b) => new TextDecoder().decode(b))
})

export const layer: Layer.Layer<FileSystem.FileSystem> = Layer.succeed(FileSystem.FileSystem)(fileSystem)
