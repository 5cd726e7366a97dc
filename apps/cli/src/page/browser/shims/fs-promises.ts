/** `node:fs/promises` in the check page's browser build: the dropped files (`fs.ts`). */
import { promises } from "./fs.js"

export const { stat, lstat, realpath, readlink, readdir, open, mkdir, writeFile, opendir } = promises
export default promises
