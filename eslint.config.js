import config, { untyped } from "@stseval/eslint-config"

// Type-aware rules read types from ONE TypeScript program for the whole repository
// (tsconfig.check.json, also what `pnpm typecheck` checks) instead of one per package: each per-package
// program re-reads the sources of every package it imports, which made lint several times slower.
export default [
  ...config,
  {
    files: ["**/*.ts"],
    ignores: untyped,
    languageOptions: {
      parserOptions: { projectService: false, project: "./tsconfig.check.json", tsconfigRootDir: import.meta.dirname }
    }
  }
]
