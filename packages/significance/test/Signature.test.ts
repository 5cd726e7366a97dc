// One signature type (issue 33): the resampling tests', the intervals' and the scored results'
// signatures are lines of the same fields, long (as printed since 0.1.0, unchanged) or short.
import { describe, expect, it } from "vitest"
import { Intervals, Signature } from "../src/index.js"

describe("Signature: one type, long and short forms", () => {
  const bootstrap: Signature.Signature = { method: "bootstrap", resamples: 1000, seed: 7, metric: "pearson", strata: "dataset", aggregate: "unweighted", rng: "xoroshiro128plus", version: "0.1.0" }

  it("the long form is the line every output has printed", () => {
    expect(Signature.format(bootstrap)).toBe("method:bootstrap|resamples:1000|seed:7|metric:pearson|strata:dataset|aggregate:unweighted|rng:xoroshiro128plus|version:0.1.0")
    expect(Signature.format({ ...bootstrap, strata: "none", aggregate: undefined })).toBe("method:bootstrap|resamples:1000|seed:7|metric:pearson|strata:none|rng:xoroshiro128plus|version:0.1.0")
    const intervals: Intervals.Signature = {
      method: "percentile-bootstrap", resamples: 1000, seed: 12345, level: 0.95, strata: "none", quantile: "type7", official: "single", missing: "zero", rng: "xoroshiro128plus", version: "0.1.0", metrics: "kendall"
    }
    expect(Signature.format(intervals)).toBe(
      "method:percentile-bootstrap|resamples:1000|seed:12345|level:0.95|strata:none|quantile:type7|official:single|missing:zero|metrics:kendall|rng:xoroshiro128plus|version:0.1.0"
    )
    expect(Signature.format(intervals, "short")).toBe("m:percentile-bootstrap|B:1000|s:12345|level:0.95|strata:none|q:type7|official:single|missing:zero|metrics:kendall|rng:xoroshiro128plus|v:0.1.0")
    // the fields print in the one order whatever order the object was built in
    const { metrics, version, ...rest } = intervals
    const reordered: Intervals.Signature = { version, metrics, ...rest }
    expect(Signature.format(reordered)).toBe(Signature.format(intervals))
    const { version: v, ...others } = bootstrap
    expect(Signature.format({ version: v, ...others }, "short")).toBe(Signature.format(bootstrap, "short"))
  })

  it("the intervals' signature is formatted by the one formatter: Intervals has none of its own", () => {
    expect("formatSignature" in Intervals).toBe(false)
  })

  it("the short form abbreviates the keys that have a short name; `@` joins a name and its hash or version", () => {
    expect(Signature.format(bootstrap, "short")).toBe("m:bootstrap|B:1000|s:7|metric:pearson|strata:dataset|agg:unweighted|rng:xoroshiro128plus|v:0.1.0")
    expect(Signature.line([{ key: "sts2017", value: "1a2b3c4d", join: "@" }, undefined, { key: "gold", value: "00ff00ff" }])).toBe("sts2017@1a2b3c4d|gold:00ff00ff")
  })
})
