

/**
 * Reading a user's file: the one place stseval reads the bytes of a run, a gold file, a `run.json`,
 * an edition file, a report config, an import's input or a cached download.
 *
 * Open once, then check the open file. Every read opens the path without following a final
 * symbolic link (`O_NOFOLLOW`) and without blocking (`O_NONBLOCK`: a FIFO without a writer would
 * block the open forever); a path that is a link is resolved once, checked, and its target opened
 * the same way. What was opened is then checked on the descriptor itself, before a byte is read:
 * its type and size (`fstat`: a regular file only, never a FIFO, socket or device) and, with
 * `within`, its real path (on Linux `/proc/self/fd/<fd>`; elsewhere the real path of what was
 * opened, accepted only when it is still the same file, device and inode, as the descriptor). A
 * link swapped in between a check and the open (`renameat2(RENAME_EXCHANGE)`) therefore cannot make
 * stseval read a file outside the folder: the descriptor's real path gives it away.
 *
 * Reads are capped by the bytes actually read, not by the size `fstat` reports (which is 0 for
 * `/proc` files and can change while reading).
 *
 * Hand-written on `node:fs` rather than Effect's `FileSystem`: opening needs `O_NOFOLLOW` and
 * `O_NONBLOCK`, and the checks must be made on the opened descriptor, none of which
 * `FileSystem.open` offers.
 *
 * Reading is in `files/read.ts`, writing (`copyTree`, `writeAtomic`, `writeFolder`) in `files/write.ts`.
 *
 * @since 0.2.0
 */
export * from "./files/read.js"
export * from "./files/write.js"
