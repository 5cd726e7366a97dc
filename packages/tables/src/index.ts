/**
 * @stseval/tables: paper-ready tables of ranked runs. Layouts turn results into a format-neutral
 * Table; renderers print it as Markdown, LaTeX (booktabs), a self-contained HTML page or JSON.
 *
 * @since 0.1.0
 */
export * as Table from "./Table.js"
export * as Footnotes from "./Footnotes.js"
export * as Markdown from "./Markdown.js"
export * as Latex from "./Latex.js"
export * as Html from "./Html.js"
export * as Plot from "./Plot.js"
export * as Json from "./Json.js"
export * as Results from "./Results.js"
export * as Layouts from "./Layouts.js"
export * as Presets from "./Presets.js"
export * as PresetIds from "./PresetIds.js"
export * as Config from "./Config.js"
export * as FromScoring from "./FromScoring.js"
export * as Report from "./Report.js"
export * as Folder from "./Folder.js"
