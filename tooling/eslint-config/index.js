import js from "@eslint/js"
import tseslint from "typescript-eslint"
import boundaries from "./boundaries.js"

/** The files no TypeScript project holds (so no type-aware rule can read them): the JavaScript and the Vitest configs. */
export const untyped = ["**/*.js", "**/*.mjs", "**/*.cjs", "**/vitest.config.ts"]

// Node's globals the JavaScript files use (the `globals` package's list is ten times this; a
// missing one shows as no-undef).
const node = Object.fromEntries(
  ["process", "console", "Buffer", "URL", "setTimeout", "clearTimeout", "setInterval", "clearInterval", "setImmediate", "queueMicrotask", "structuredClone", "TextDecoder", "TextEncoder", "Atomics", "SharedArrayBuffer"].map((name) => [name, "readonly"])
)

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "**/.turbo/**", "**/coverage/**", "tooling/vitest-config/*.d.ts", "tooling/eslint-config/*.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true }
    },
    plugins: { stseval: boundaries },
    rules: {
      "stseval/boundaries": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-floating-promises": "error",
      // `interface X extends Schema.Schema.Type<typeof X> {}` is Effect's idiom for a named,
      // readable type of a schema; an interface with a single `extends` is that, not a mistake.
      "@typescript-eslint/no-empty-object-type": ["error", { allowInterfaces: "with-single-extends" }],
      // Effect generators yield* values that are not Promises; these rules misread them.
      "require-yield": "off",
      "@typescript-eslint/require-yield": "off"
    }
  },
  {
    // `x ** y` (Math.pow) is not correctly rounded and its last bit differs between V8 versions
    // (Node 22 and 24): a figure or statistic written with it would print differently from one
    // supported Node to the next. Products (significance's internal/powers.ts) round the same
    // everywhere; a literal base (2 ** 20, exact) is fine.
    files: ["packages/metrics/src/**/*.ts", "packages/significance/src/**/*.ts"],
    rules: {
      "no-restricted-syntax": ["error", {
        selector: "BinaryExpression[operator='**'][left.type!='Literal']",
        message: "`**` rounds differently between Node versions: write the power as products (sq, cube in significance's internal/powers.ts)"
      }]
    }
  },
  {
    // the syntax rules only: type-aware rules need a TypeScript program, which these files are in none of
    files: untyped,
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: "module",
      globals: node
    }
  }
)
