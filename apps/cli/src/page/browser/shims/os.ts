/**
 * `node:os` in the check page's browser build: the memory the resampling may plan for
 * (`Uncertainty.beyondMemory`) is the browser's estimate (`navigator.deviceMemory`, GiB), else 4 GiB.
 */
const gib = (globalThis as { readonly navigator?: { readonly deviceMemory?: number } }).navigator?.deviceMemory ?? 4
export const totalmem = (): number => gib * 2 ** 30
export const availableParallelism = (): number => 1
export const cpus = (): ReadonlyArray<unknown> => [{}]
export const tmpdir = (): string => "/tmp"
export const homedir = (): string => "/"
export const platform = (): string => "browser"
export const EOL = "\n"
export default { totalmem, availableParallelism, cpus, tmpdir, homedir, platform, EOL }
