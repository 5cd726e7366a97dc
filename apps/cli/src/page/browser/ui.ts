/// <reference lib="dom" />
/**
 * The check page's own script: files, folders or a zip dropped (or chosen) are read with a
 * progress bar, handed to the worker (started from the page's text as a Blob URL: no file, no
 * network), and its answer shown: `validate`'s text, and with gold `score --ci 95`'s. The main
 * thread only reads and shows, so the page stays responsive while a large run is scored; the
 * worker is ended at the CLI's time budget.
 */
import type { Dropped } from "./Check.js"
import type { FromWorker, ToWorker } from "./worker.js"
import type { Embedded } from "../Embedded.js"

/** Files larger than the CLI reads (`Text.DEFAULT_MAX_BYTES`) are not read: their size is enough to refuse them with the CLI's message. */
declare const STSEVAL_PAGE_MAX_BYTES: number

const byId = <E extends HTMLElement>(id: string) => document.getElementById(id) as E
const embedded = JSON.parse(byId("stseval-embedded").textContent ?? "{}") as Embedded
const workerSource = JSON.parse(byId("stseval-worker").textContent ?? '""') as string
const workerUrl = URL.createObjectURL(new Blob([workerSource], { type: "text/javascript" }))

const bar = byId<HTMLProgressElement>("progress")
const stage = byId("stage")
const validateOut = byId("validate")
const scoreOut = byId("score")
const state = (s: "idle" | "reading" | "checking" | "done" | "failed") => (document.body.dataset["state"] = s)

interface Picked {
  readonly path: string
  readonly file: File
}

/** Every file under a dropped folder entry, with its path from the dropped item. */
const walk = async (entry: FileSystemEntry, prefix: string, out: Array<Picked>): Promise<void> => {
  const path = prefix === "" ? entry.name : `${prefix}/${entry.name}`
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) => (entry as FileSystemFileEntry).file(resolve, reject))
    out.push({ path, file })
    return
  }
  const reader = (entry as FileSystemDirectoryEntry).createReader()
  for (;;) {
    const batch = await new Promise<Array<FileSystemEntry>>((resolve, reject) => reader.readEntries(resolve, reject))
    if (batch.length === 0) break
    for (const child of batch) await walk(child, path, out)
  }
}

const CHUNK = 4 * 1024 * 1024

/** The files' bytes, read in slices so the bar moves (a 50 MB run is a dozen steps). */
const read = async (picked: ReadonlyArray<Picked>): Promise<Array<Dropped>> => {
  const total = picked.reduce((n, p) => n + Math.min(p.file.size, STSEVAL_PAGE_MAX_BYTES), 0)
  let done = 0
  const out: Array<Dropped> = []
  for (const { path, file } of picked) {
    if (file.size > STSEVAL_PAGE_MAX_BYTES) {
      out.push({ path, bytes: new Uint8Array(0), size: file.size })
      continue
    }
    const bytes = new Uint8Array(file.size)
    for (let at = 0; at < file.size; at += CHUNK) {
      bytes.set(new Uint8Array(await file.slice(at, at + CHUNK).arrayBuffer()), at)
      done += Math.min(CHUNK, file.size - at)
      bar.value = total === 0 ? 0.5 : (0.5 * done) / total
      stage.textContent = `reading ${path}`
    }
    out.push({ path, bytes })
  }
  return out
}

let running: Worker | undefined

const show = (checked: Extract<FromWorker, { type: "done" }>["checked"]) => {
  validateOut.textContent = checked.validate
  scoreOut.textContent = checked.score ?? (embedded.gold === undefined ? "No gold is embedded in this page: only the checks that need none are shown." : "")
  ;(globalThis as { stsevalChecked?: unknown }).stsevalChecked = checked
}

const run = async (picked: ReadonlyArray<Picked>) => {
  running?.terminate()
  state("reading")
  validateOut.textContent = ""
  scoreOut.textContent = ""
  bar.value = 0
  const files = await read(picked)
  state("checking")
  const worker = new Worker(workerUrl)
  running = worker
  // the CLI's budget is each run's, for reading and scoring it: as many budgets as runs dropped
  const runs = new Set(picked.map((p) => p.path.split("/")[0])).size
  const seconds = (ms: number) => `${Number((ms / 1000).toFixed(2))} s`
  const timer = setTimeout(() => {
    worker.terminate()
    state("failed")
    stage.textContent = `over the time budget: reading and checking took longer than ${seconds(embedded.limits.timeMs * runs)} (the CLI's ${seconds(embedded.limits.timeMs)} per run, stseval --time-budget); nothing was scored`
    validateOut.textContent = stage.textContent
  }, embedded.limits.timeMs * runs)
  worker.onmessage = (event: MessageEvent<FromWorker>) => {
    const m = event.data
    if (m.type === "progress") {
      if (m.scored) clearTimeout(timer)
      stage.textContent = m.stage
      bar.value = Math.min(0.95, bar.value + (1 - bar.value) / 3)
      return
    }
    clearTimeout(timer)
    worker.terminate()
    if (m.type === "error") {
      state("failed")
      stage.textContent = m.message
      validateOut.textContent = m.message
      return
    }
    bar.value = 1
    stage.textContent = m.checked.valid ? "checked: valid" : "checked: problems found"
    show(m.checked)
    state("done")
  }
  const message: ToWorker = { type: "check", embedded, files }
  worker.postMessage(message, files.map((f) => f.bytes.buffer))
}

const pickedOf = (list: FileList): Array<Picked> => [...list].map((file) => ({ path: file.webkitRelativePath !== "" ? file.webkitRelativePath : file.name, file }))

const drop = byId("drop")
drop.addEventListener("dragover", (e) => {
  e.preventDefault()
  drop.classList.add("over")
})
drop.addEventListener("dragleave", () => drop.classList.remove("over"))
drop.addEventListener("drop", (e) => {
  e.preventDefault()
  drop.classList.remove("over")
  const items = [...(e.dataTransfer?.items ?? [])].map((i) => i.webkitGetAsEntry()).filter((x): x is FileSystemEntry => x !== null)
  const picked: Array<Picked> = []
  // files with no entry (not from a file system: dragged from another page) are taken as files
  const files = items.length === 0 && e.dataTransfer !== null ? pickedOf(e.dataTransfer.files) : []
  void (async () => {
    for (const entry of items) await walk(entry, "", picked)
    await run([...picked, ...files])
  })()
})
for (const id of ["files", "folder"]) {
  const input = byId<HTMLInputElement>(id)
  input.addEventListener("change", () => {
    if (input.files !== null && input.files.length > 0) void run(pickedOf(input.files))
  })
}
state("idle")
