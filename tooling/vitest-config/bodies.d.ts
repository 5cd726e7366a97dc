/** Both bodies of a built file are there, `programOnly` only in the program's, the scorer's under `under` x the program's; the two bodies. */
export declare const expectScorerBody: (
  bodies: { readonly program: string | undefined; readonly worker: string | undefined },
  options: { readonly programOnly: string; readonly under: number }
) => { readonly program: string; readonly worker: string }
