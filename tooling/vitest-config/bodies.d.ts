/** Both bodies of a built file are there, `programOnly` only in the program's, the scorer's under `under` x the program's; the two bodies. */
export declare const expectScorerBody: (
  bodies: { readonly program: string | undefined; readonly worker: string | undefined },
  options: { readonly programOnly: string; readonly under: number }
) => { readonly program: string; readonly worker: string }
/** Whether V8 rejects the code cache `cacheFile` for each body, asked of a fresh `node` (the test process's V8 flags may have been changed by another test file). */
export declare const cacheRejected: (
  bodies: { readonly program: string | undefined; readonly worker: string | undefined },
  cacheFile: string
) => { readonly program: boolean; readonly worker: boolean }
/** The code cache a scorer thread saved under `tmp` (the loader's `stseval-<uid>` folder), the first `pattern` matches. */
export declare const scorerCache: (tmp: string, pattern?: RegExp) => string
