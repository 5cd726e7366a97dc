// Issue 34's rule: with the same draws, every interval bound, p-value and estimate equals the one
// the engines gave before the change to 1e-12 relative, and every count, rank, rank interval and
// signature is identical. The reference (fixtures/engine-before-34.json) was written by
// bench/engine-fixture.ts from the engines before issue 34 (base commit 5665571).
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { bootstrapRecord, engineCases, intervalsRecord, permutationRecord } from "./engineCases.js"

const before = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "fixtures/engine-before-34.json"), "utf8")) as Record<string, unknown>

/**
 * Numbers to 1e-12 relative (null for NaN / undefined on both sides), anything else identical. A
 * p-value of the normal approximation, 2 Phi(-|z|), is taken to 1e-12 in z: its relative change is
 * about z^2 = 2 ln(1 / p) times z's, so a p of 1e-21 (z = 9.5) moves 1e-12 x 96 for z's 1e-12.
 */
const same = (ours: unknown, theirs: unknown, where: string): void => {
  if (typeof theirs === "number" && typeof ours === "number") {
    const scale = Math.max(Math.abs(ours), Math.abs(theirs))
    const condition = where.includes(".normal[") && theirs > 0 ? Math.max(1, 2 * Math.log(1 / theirs)) : 1
    if (Math.abs(ours - theirs) > 1e-12 * condition * scale) expect.fail(`${where}: ${ours} against ${theirs} before`)
    return
  }
  if (Array.isArray(theirs) && Array.isArray(ours)) {
    expect(ours.length, where).toBe(theirs.length)
    theirs.forEach((t, i) => same(ours[i], t, `${where}[${i}]`))
    return
  }
  if (theirs !== null && typeof theirs === "object" && ours !== null && typeof ours === "object") {
    expect(Object.keys(ours).sort(), where).toEqual(Object.keys(theirs).sort())
    for (const k of Object.keys(theirs)) same((ours as Record<string, unknown>)[k], (theirs as Record<string, unknown>)[k], `${where}.${k}`)
    return
  }
  expect(ours, where).toEqual(theirs)
}

describe("the resampling engine gives the figures of the engines before issue 34", () => {
  it.each(engineCases.bootstrap.map((c) => [c.name, c] as const))("bootstrap %s", (name, c) => same(bootstrapRecord(c), before[`bootstrap ${name}`], name))
  it.each(engineCases.permutation.map((c) => [c.name, c] as const))("permutation %s", (name, c) => same(permutationRecord(c), before[`permutation ${name}`], name))
  it.each(engineCases.intervals.map((c) => [c.name, c] as const))("intervals %s", (name, c) => same(intervalsRecord(c), before[`intervals ${name}`], name))
})
