/**
 * The one HTML escaper (public as `Html.escape`): here so that `Html` and `Plot` share it without
 * importing each other.
 *
 * @internal
 */

/** Text for HTML element content and attribute values: `&<>"'` escaped, control characters dropped. */
export const escape = (s: string): string =>
  s
    // C0 controls but tab, line feed and carriage return, DEL and the C1 controls: never text a page shows
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g, "")
    .replace(/[&<>"']/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === '"' ? "&quot;" : "&#39;"))
