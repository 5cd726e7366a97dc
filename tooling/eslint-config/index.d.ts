import type { Linter } from "eslint"

/** The files no TypeScript project holds (linted without type-aware rules). */
export declare const untyped: ReadonlyArray<string>

/** The shared flat config. */
declare const config: ReadonlyArray<Linter.Config>
export default config
