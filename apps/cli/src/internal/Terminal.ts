/**
 * The one gate between the CLI's text and a terminal: every line a command prints goes through
 * {@link sanitize} (`Main` and `bin.ts` install it in the `Console`), so a run id, team name,
 * label or value holding terminal escapes (clear the screen, set the title, move the cursor) is
 * shown escaped, never obeyed. `Issue.format` escapes issues the same way (`Issue.escapeControls`).
 */
import { Issue } from "@stseval/formats"

// Styling (colour and weight: what `Style` and Effect's log lines use, and their resets) is the
// only escape sequence let through: it cannot clear the screen, move the cursor, set the title or
// hide text. Every other control character (C0 but the newline, DEL, C1) and the bidi controls
// that reorder what is shown are escaped.
// eslint-disable-next-line no-control-regex
const UNSAFE = /(\u001b\[(?:(?:0|1|2|22|3[0-79]|90|101);?)*m)|[\u0000-\u0009\u000b-\u001f\u007f-\u009f]|[\u202a-\u202e\u2066-\u2069]/g

/**
 * `text` safe to print: control characters as visible escapes (`\x1b`, `\t`, `\u007f`, `\u202e`),
 * the newline and the CLI's own styling kept. DEL, C1 and bidi controls become `\uXXXX`, a JSON
 * escape of the same character: in a `--json` document (where JSON.stringify has already escaped
 * every C0 control) they are the only ones left, so the document stays valid JSON and reads back
 * to the same strings.
 */
export const sanitize = (text: string): string =>
  text.replace(UNSAFE, (match, style: string | undefined) =>
    style !== undefined
      ? style
      : match.charCodeAt(0) >= 0x7f
        ? `\\u${match.charCodeAt(0).toString(16).padStart(4, "0")}`
        : Issue.escapeControls(match)
  )
