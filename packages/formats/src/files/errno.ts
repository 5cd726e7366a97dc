/** The operating system's error codes: read from an error, and in words. */

export const errnoOf = (e: unknown): string | undefined =>
  typeof e === "object" && e !== null && "code" in e && typeof e.code === "string" ? e.code : undefined

// What the operating system's error codes mean, for people: Effect names every code it has no
// reason of its own for "Unknown" ("Unknown: FileSystem.writeFile (/srv/out/x)").
export const ERRNO_WORDS: Readonly<Record<string, string>> = {
  ENOSPC: "no space is left on the device",
  EDQUOT: "the disk quota is used up",
  EROFS: "the file system is read-only",
  EIO: "the device reported an input/output error",
  EACCES: "permission denied",
  EPERM: "the operation is not permitted",
  ENOENT: "it does not exist",
  EEXIST: "it already exists",
  ENOTDIR: "a part of the path is not a folder",
  EISDIR: "it is a folder",
  ENAMETOOLONG: "the name is longer than the file system allows",
  EMFILE: "too many files are open",
  ENFILE: "too many files are open on the system",
  EXDEV: "it is on another file system",
  ENOTEMPTY: "the folder is not empty",
  EBUSY: "it is in use",
  ETXTBSY: "it is in use",
  ELOOP: "a link in its path points back to itself (a loop)"
}
