// Integer powers as products. `x ** 3` (Math.pow) is not correctly rounded and its last bit differs
// between V8 versions (Node 22 and 24 give different bits for the same x), so a statistic written
// with it would differ in its last digits from one supported Node to the next; a product rounds the
// same everywhere. The lint rule `no-restricted-syntax` (tooling/eslint-config) keeps `**` out of the figures.
export const sq = (x: number): number => x * x
export const cube = (x: number): number => x * x * x
