/**
 * The check page as one HTML file: its style, its script, its worker's script and what it embeds
 * (`Embedded`), all inline, so that it works from `file://` with no network. The Content Security
 * Policy allows no request at all (no `connect-src`, images only as data): only inline scripts and
 * the worker the page makes from its own text (a Blob URL).
 */
import type { Registry } from "@stseval/formats"
import { Html } from "@stseval/tables"
import type { Embedded } from "./Embedded.js"
import type { Scripts } from "./Scripts.js"

/** JSON that is safe inside a `<script>` element: `<` written as `\u003c` (still the same JSON). */
const inScript = (value: unknown): string => JSON.stringify(value).replace(/</g, "\\u003c")

const CSP = "default-src 'none'; script-src 'unsafe-inline' blob:; worker-src blob:; style-src 'unsafe-inline'; img-src data:; connect-src 'none'; form-action 'none'; base-uri 'none'"

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 60em; padding: 0 1em; color: #1a1a1a; }
h1 { font-size: 1.4em; margin-bottom: 0.2em; }
.sub { color: #555; margin-top: 0; }
#drop { border: 2px dashed #7a8ca0; border-radius: 8px; padding: 2em; text-align: center; background: #f6f8fa; }
#drop.over { background: #e3f0ff; border-color: #2f6fb0; }
#drop label { display: inline-block; margin: 0.5em 0.6em 0; color: #2f6fb0; cursor: pointer; text-decoration: underline; }
#drop input { display: none; }
progress { width: 100%; height: 1em; margin-top: 1em; }
#stage { color: #555; min-height: 1.4em; }
pre { background: #f6f8fa; padding: 1em; overflow-x: auto; font-size: 13px; white-space: pre; }
pre:empty { display: none; }
`

const datasetNames = (edition: Registry.TaskEdition): string =>
  edition.submission === "file"
    ? "one run file (or a zip of it)"
    : `a folder (or a zip) of per-dataset files named ${edition.datasets
        .slice(0, 6)
        .map((d) => d.run)
        .join(", ")}${edition.datasets.length > 6 ? ", ..." : ""}`

/** The page: `edition` for its title and instructions, `embedded` for its worker. */
export const page = (edition: Registry.TaskEdition, embedded: Embedded, scripts: Scripts): string => {
  const gold = embedded.gold !== undefined ? `checked against the gold ${Html.escape(embedded.gold.name)}: the figures are shown as <code>stseval score --ci 95</code> prints them` : "without gold: the runs' checks only"
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Check a run: ${Html.escape(edition.id)}</title>
<style>${STYLE}</style>
</head>
<body data-state="loading">
<h1>Check a run of ${Html.escape(edition.title)} before submitting</h1>
<p class="sub">${Html.escape(edition.id)}, ${gold}. Nothing leaves your browser: the page makes no network request, and works offline from your disk.</p>
<div id="drop">
<p>Drop run files, a run folder or a zip here: a run is ${Html.escape(datasetNames(edition))}, named <code>Team_runN</code>.</p>
<label>choose files<input id="files" type="file" multiple></label>
<label>choose a folder<input id="folder" type="file" webkitdirectory></label>
<progress id="progress" max="1" value="0"></progress>
<div id="stage"></div>
</div>
<h2>What <code>stseval validate</code> says</h2>
<pre id="validate"></pre>
<h2>What <code>stseval score --ci 95</code> says</h2>
<pre id="score"></pre>
<p class="sub">The same checks and figures as the <a href="https://www.npmjs.com/package/@stseval/cli">stseval</a> scorer (its own code, compiled for the browser). Limits are the scorer's: a run file over ${Math.round(256)} MiB, a zip unpacking to over 32 MiB or a check over ${Math.round(embedded.limits.timeMs / 1000)} s is refused.</p>
<script type="application/json" id="stseval-embedded">${inScript(embedded)}</script>
<script type="application/json" id="stseval-worker">${inScript(scripts.worker)}</script>
<script>${scripts.ui.replace(/<\/script/gi, "<\\/script")}</script>
</body>
</html>
`
}
