/** A new folder `stseval-<name>-XXXXXX` in the system's temporary folder, removed after the calling file's (or suite's) tests. */
export declare const scratchDir: (name: string) => string
/** Writes `text` to `dir/name`, making the folders on the way; the file's path. */
export declare const writeIn: (dir: string, name: string, text: string) => string
