/**
 * Every output says the same (support/consistency.ts), for SemRel 2024's tracks (every other
 * built-in edition: consistency-sts.test.ts).
 */
import { checkConsistency, editions } from "./support/consistency.js"

checkConsistency(editions.filter((id) => id.startsWith("semrel")))
