/**
 * The Node modules the check page's code imports but never calls in a browser
 * (`node:worker_threads`, `node:module`, ...): the page's worker is the run's isolation, and the
 * scoring version is written in at build time. A call says so plainly.
 */
const no = (what: string) => (): never => {
  throw new Error(`${what} is not available in the check page`)
}
export const isMainThread = true
export const parentPort = null
export const workerData = undefined
export const Worker = no("worker_threads.Worker")
export const createRequire = no("module.createRequire")
export const fileURLToPath = (u: string | URL): string => new URL(String(u)).pathname
export const pathToFileURL = (p: string): URL => new URL(`file://${p}`)
export default { isMainThread, parentPort, workerData, Worker, createRequire, fileURLToPath, pathToFileURL }
