/**
 * The `process` global in the check page's browser build: what the packages read of it (the
 * working folder, the platform, the environment, `getBuiltinModule` for the Node modules they load
 * lazily), answered by the page's shims. Injected by the build (esbuild `inject`).
 */
import buffer from "./buffer.js"
import fs from "./fs.js"
import os from "./os.js"
import path from "./path.js"
import unavailable from "./unavailable.js"
import zlib from "./zlib.js"

const builtins: Record<string, unknown> = {
  "node:buffer": buffer,
  "node:fs": fs,
  "node:os": os,
  "node:path": path,
  "node:zlib": zlib,
  "node:worker_threads": unavailable
}

export const process = {
  platform: "browser",
  env: {} as Record<string, string | undefined>,
  argv: [] as Array<string>,
  versions: {} as Record<string, string>,
  cwd: () => "/",
  exitCode: undefined as number | undefined,
  nextTick: (f: (...args: Array<unknown>) => void, ...args: Array<unknown>) => queueMicrotask(() => f(...args)),
  on: () => process,
  off: () => process,
  once: () => process,
  emitWarning: () => undefined,
  getBuiltinModule: (name: string): unknown => {
    const m = builtins[name.startsWith("node:") ? name : `node:${name}`]
    if (m === undefined) throw new Error(`${name} is not available in the check page`)
    return m
  }
}

// Effect's POSIX `Path` reads the working folder from `globalThis.process`, not from an import.
;(globalThis as { process?: unknown }).process ??= process
