/** Why the swap helper cannot run here (not Linux, no python3 nor C compiler), or undefined when it can. */
export declare const swapUnavailable: () => string | undefined

/**
 * Start swapping the directory entries `a` and `b` (same file system) atomically in a loop
 * (`renameat2` with `RENAME_EXCHANGE`) until `stop()`, which resolves with the number of swaps.
 */
export declare const startSwapping: (a: string, b: string) => Promise<{ readonly stop: () => Promise<number> }>
