/**
 * What the apps' tests assert of a built file's scorer-only body (`Bundle.bodies`'s): both bodies
 * are there, a text only the program holds (`programOnly`: one of its commands or pages) is not in
 * the scorer's, and the scorer's body is under `under` times the program's.
 */
import { expect } from "vitest"

export const expectScorerBody = ({ program = "", worker = "" }, { programOnly, under }) => {
  expect(worker, "the scorer-only body").not.toBe("")
  expect(program, "the program's body").not.toBe("")
  expect(program).toContain(programOnly)
  expect(worker).not.toContain(programOnly)
  expect(worker.length).toBeLessThan(program.length * under)
  return { program, worker }
}
