/** A new folder `stseval-<name>-XXXXXX` in the system's temporary folder, removed after the calling file's (or suite's) tests. */
export declare const scratchDir: (name: string) => string
