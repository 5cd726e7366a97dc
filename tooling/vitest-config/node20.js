// Vitest 5 targets Node 22 and calls Map.groupBy / Object.groupBy (Node 21+) when it reports a
// failing test; on Node 20 the reporter then crashes and hides the failure. Polyfill both here,
// in the main Vitest process (this file is imported by the root vitest.config.ts).
if (typeof Map.groupBy !== "function") {
  Map.groupBy = (items, key) => {
    const groups = new Map()
    let i = 0
    for (const item of items) {
      const k = key(item, i++)
      const group = groups.get(k)
      if (group === undefined) groups.set(k, [item])
      else group.push(item)
    }
    return groups
  }
}
if (typeof Object.groupBy !== "function") {
  Object.groupBy = (items, key) => {
    const groups = Object.create(null)
    let i = 0
    for (const item of items) {
      const k = key(item, i++)
      ;(groups[k] ??= []).push(item)
    }
    return groups
  }
}
