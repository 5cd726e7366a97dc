import js from "@eslint/js"
import tseslint from "typescript-eslint"

export default tseslint.config(
  { ignores: ["**/dist/**", "**/node_modules/**", "**/.turbo/**", "**/coverage/**", "**/*.js", "**/*.mjs", "**/vitest.config.ts", "tooling/vitest-config/*.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true }
    },
    rules: {
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
  }
)
