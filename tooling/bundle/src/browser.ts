/**
 * A browser script from workspace sources, as one string (esbuild, ESM-free IIFE, minified): for a
 * page that must hold all its code inline (`stseval page check`). `alias` maps the Node modules the
 * sources import to the caller's browser stand-ins; `inject` adds globals (`process`).
 *
 * @since 0.3.0
 */
import * as esbuild from "esbuild"

export interface BrowserScriptOptions {
  /** the entry, absolute */
  readonly entry: string
  /** module name (`node:fs`) to an absolute file that stands in for it */
  readonly alias: Readonly<Record<string, string>>
  /** files whose exports become globals (esbuild `inject`) */
  readonly inject?: ReadonlyArray<string>
  readonly define?: Readonly<Record<string, string>>
  readonly minify?: boolean
}

export const browserScript = async (options: BrowserScriptOptions): Promise<string> => {
  const result = await esbuild.build({
    entryPoints: [options.entry],
    bundle: true,
    write: false,
    platform: "browser",
    format: "iife",
    target: "es2022",
    // the workspace packages' sources (their `exports` condition), as the CLI's own bundle
    conditions: ["@stseval/source"],
    minify: options.minify ?? true,
    legalComments: "none",
    charset: "utf8",
    alias: { ...options.alias },
    inject: [...(options.inject ?? [])],
    // `import.meta` has no meaning in an inline script; the code reading it is never run there
    define: { "import.meta.url": "undefined", "import.meta.dirname": "undefined", ...options.define },
    logLevel: "silent"
  })
  for (const w of result.warnings) process.stderr.write(`browser bundle: ${w.text}\n`)
  return result.outputFiles[0].text
}
