export * as Pearson from "./Pearson.js"
