export { default } from "@stseval/eslint-config"
