/**
 * The check page's two scripts (its own, `browser/ui.ts`, and its worker's, `browser/worker.ts`:
 * the packages compiled for the browser, their Node modules replaced by `browser/shims`). The
 * executable carries them prebuilt and gzipped (`packed`: `scripts/bundle.ts` writes them in as
 * `STSEVAL_PAGE_SCRIPTS`, base64; 0.3 MB instead of 0.9 MB in the file); run from the sources (the
 * tests, `pnpm stseval`) they are built on first use with esbuild.
 */
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { Text } from "@stseval/formats"
import { Signature } from "@stseval/scoring"
import type * as BrowserBundle from "@stseval/bundle/browser"

declare const STSEVAL_PAGE_SCRIPTS: string | undefined

export interface Scripts {
  readonly ui: string
  readonly worker: string
}

const browserDir = (): string => path.join(path.dirname(fileURLToPath(import.meta.url)), "browser")

const shims = (): Record<string, string> => {
  const shim = (name: string) => path.join(browserDir(), "shims", name)
  return {
    "node:fs": shim("fs.ts"),
    "node:fs/promises": shim("fs-promises.ts"),
    "node:path": shim("path.ts"),
    "node:buffer": shim("buffer.ts"),
    "node:zlib": shim("zlib.ts"),
    "node:crypto": shim("crypto.ts"),
    "node:os": shim("os.ts"),
    "node:worker_threads": shim("unavailable.ts"),
    "node:module": shim("unavailable.ts"),
    "node:url": shim("unavailable.ts")
  }
}

/** Build both scripts from the sources (esbuild, through `@stseval/bundle/browser`). */
export const build = async (): Promise<Scripts> => {
  // a name esbuild does not follow: the executable never carries the bundler
  const bundler = "@stseval/bundle/browser"
  const { browserScript } = (await import(bundler)) as typeof BrowserBundle
  const define = {
    STSEVAL_SCORING_VERSION: JSON.stringify(Signature.VERSION),
    STSEVAL_PAGE_MAX_BYTES: String(Text.DEFAULT_MAX_BYTES)
  }
  const [ui, worker] = await Promise.all([
    browserScript({ entry: path.join(browserDir(), "ui.ts"), alias: {}, define }),
    browserScript({ entry: path.join(browserDir(), "worker.ts"), alias: shims(), inject: [path.join(browserDir(), "shims/process.ts")], define })
  ])
  return { ui, worker }
}

// loaded when a page is made, not at the program's start (which no command's start needs: bundle.test.ts)
const zlib = () => process.getBuiltinModule("node:zlib")

/** The scripts as the executable carries them: their JSON, gzipped, in base64. */
export const packed = (scripts: Scripts): string => zlib().gzipSync(JSON.stringify(scripts), { level: 9 }).toString("base64")

let built: Promise<Scripts> | undefined

/** The scripts: prebuilt in the executable, else built once per process. */
export const scripts = (): Promise<Scripts> =>
  typeof STSEVAL_PAGE_SCRIPTS === "string"
    ? Promise.resolve(JSON.parse(zlib().gunzipSync(Buffer.from(STSEVAL_PAGE_SCRIPTS, "base64")).toString("utf8")) as Scripts)
    : (built ??= build())
