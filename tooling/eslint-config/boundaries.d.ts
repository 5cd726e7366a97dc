import type { ESLint } from "eslint"

/** Each package's and app's allowed workspace imports (besides itself), as docs/architecture.md draws them. */
export declare const reads: Readonly<Record<string, ReadonlyArray<string>>>

/** Why workspace folder `from` may not import `to` (for a file at `fileInUnit` inside `from`), or undefined when it may. */
export declare const forbidden: (from: string, to: string, fileInUnit: string) => string | undefined

/** The plugin whose rule `boundaries` keeps the import boundaries. */
declare const plugin: ESLint.Plugin
export default plugin
