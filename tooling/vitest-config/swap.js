// Swapping two directory entries in a loop, atomically (`renameat2` with `RENAME_EXCHANGE`), for
// the tests of the check-then-open race: a path that is a regular file when it is checked and a
// link out of the folder when it is opened. Node has no `renameat2`, so a tiny helper does it:
// python3's ctypes when python3 is there, else a C program compiled with the system's compiler.
// Linux only (the call is Linux's); `startSwapping` says why when it cannot run.
import { execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

const PYTHON = `
import ctypes, os, signal, sys
libc = ctypes.CDLL(None, use_errno=True)
a, b = sys.argv[1].encode(), sys.argv[2].encode()
if hasattr(libc, "renameat2"):
    swap = lambda: libc.renameat2(-100, a, -100, b, 2)
else:
    # glibc before 2.28: the system call itself (x86-64: 316, arm64: 276)
    import platform
    nr = {"x86_64": 316, "aarch64": 276}.get(platform.machine())
    if nr is None:
        sys.stdout.write("unsupported\\n"); sys.stdout.flush(); sys.exit(3)
    swap = lambda: libc.syscall(nr, -100, a, -100, b, 2)
count = 0
def stop(*_):
    sys.stdout.write("swaps %d\\n" % count); sys.stdout.flush(); sys.exit(0)
signal.signal(signal.SIGTERM, stop)
# ended with the test process, even when it is killed outright (PR_SET_PDEATHSIG: 1): no orphan
# left swapping on a whole core
parent = os.getppid()
libc.prctl(1, signal.SIGTERM)
if os.getppid() != parent:
    sys.exit(0)
if swap() != 0:
    sys.stdout.write("failed %d\\n" % ctypes.get_errno()); sys.stdout.flush(); sys.exit(2)
count = 1
sys.stdout.write("ready\\n"); sys.stdout.flush()
while True:
    swap(); count += 1
`

const C = `
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>
static volatile sig_atomic_t stopped = 0;
static void on_term(int s) { (void)s; stopped = 1; }
int main(int argc, char **argv) {
  if (argc != 3) return 1;
  signal(SIGTERM, on_term);
  /* ended with the test process, even when it is killed outright: no orphan left swapping */
  pid_t parent = getppid();
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) return 0;
  long count = 0;
  if (syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], 2) != 0) { printf("failed\\n"); fflush(stdout); return 2; }
  count = 1;
  printf("ready\\n"); fflush(stdout);
  while (!stopped) { syscall(SYS_renameat2, AT_FDCWD, argv[1], AT_FDCWD, argv[2], 2); count++; }
  printf("swaps %ld\\n", count); fflush(stdout);
  return 0;
}
`

const has = (command, args) => {
  try {
    execFileSync(command, args, { stdio: "ignore" })
    return true
  } catch {
    return false
  }
}

let compiled

/** The command that swaps its two arguments in a loop, or a sentence saying why there is none. */
const swapper = () => {
  if (process.platform !== "linux") return { why: "renameat2 is a Linux system call" }
  if (has("python3", ["-c", "import ctypes"])) return { command: "python3", args: ["-c", PYTHON] }
  if (compiled !== undefined) return compiled
  for (const cc of ["cc", "gcc", "clang"]) {
    if (!has(cc, ["--version"])) continue
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "stseval-swap-"))
    fs.writeFileSync(path.join(dir, "swap.c"), C)
    if (has(cc, ["-O2", "-o", path.join(dir, "swap"), path.join(dir, "swap.c")])) {
      compiled = { command: path.join(dir, "swap"), args: [] }
      return compiled
    }
  }
  return { why: "neither python3 (with ctypes) nor a C compiler is available to call renameat2" }
}

/**
 * Why the swap helper cannot run here, or undefined when it can: tests use it with `skipIf`, and
 * print it.
 *
 * @returns {string | undefined}
 */
export const swapUnavailable = () => swapper().why

/**
 * Start swapping the directory entries `a` and `b` (same file system) in a loop until `stop()`,
 * which resolves with the number of swaps made. Resolves once the first swap has been made.
 *
 * @param {string} a
 * @param {string} b
 * @returns {Promise<{ readonly stop: () => Promise<number> }>}
 */
export const startSwapping = (a, b) =>
  new Promise((resolve, reject) => {
    const s = swapper()
    if (s.why !== undefined) return reject(new Error(s.why))
    const child = spawn(s.command, [...s.args, a, b], { stdio: ["ignore", "pipe", "inherit"] })
    let out = ""
    let ready = false
    const done = new Promise((settle) => child.on("close", () => settle(out)))
    child.on("error", reject)
    child.stdout.on("data", (d) => {
      out += d.toString()
      if (!ready && out.includes("ready\n")) {
        ready = true
        resolve({
          stop: async () => {
            child.kill("SIGTERM")
            const text = await done
            const m = /swaps (\d+)/.exec(text)
            return m === null ? 0 : Number(m[1])
          }
        })
      } else if (!ready && /failed|unsupported/.test(out)) {
        reject(new Error(`the swap helper could not swap ${a} and ${b}: ${out.trim()}`))
      }
    })
  })
