/**
 * Every output says the same (support/consistency.ts), for the built-in editions other than SemRel
 * 2024's (consistency-semrel.test.ts): SICK 2014, STS 2012-2017 and the STS Benchmark.
 */
import { checkConsistency, editions } from "./support/consistency.js"

checkConsistency(editions.filter((id) => !id.startsWith("semrel")))
