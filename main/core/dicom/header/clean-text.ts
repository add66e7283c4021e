// Text that comes from outside (DICOM headers, settings, file names) is cleaned once, where it
// enters, so nothing downstream (terminal, logs, the service, the viewer) ever sees control
// characters or broken UTF-16. A PatientName with ESC sequences once cleared a terminal and set
// its title, and went to the service as is.

// C0 controls, DEL and C1 controls (U+0080–U+009F: U+009B is a CSI in many terminals).
// Matching control characters is the point of these expressions.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex
const CONTROL_TEST = /[\u0000-\u001f\u007f-\u009f]/;
// Whitespace controls become a space (a value split over lines keeps its words apart).
const WHITESPACE_CONTROL = /[\t\n\v\f\r\u0085]/g;
// A high surrogate not followed by a low one, or a low one not preceded by a high one.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const LONE_SURROGATE_TEST = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** `text` without control characters and lone surrogates; whitespace controls become spaces. */
export function cleanText(text: string): string {
  return text.replace(WHITESPACE_CONTROL, ' ').replace(CONTROL, '').replace(LONE_SURROGATE, '');
}

/** True when `text` holds a control character or a lone surrogate (what cleanText would remove). */
export function hasUnsafeText(text: string): boolean {
  return CONTROL_TEST.test(text) || LONE_SURROGATE_TEST.test(text);
}

/**
 * At most `max` UTF-16 units of `text`, never splitting a surrogate pair, trailing spaces trimmed;
 * `cut` says whether anything was dropped (the caller warns).
 */
export function limitText(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return { text: text.slice(0, end).trimEnd(), cut: true };
}

/**
 * Text from a file (a name, a path, a header value) made safe to print on a terminal: control
 * characters and lone surrogates are shown as `\xNN` / `\uNNNN` instead of being sent raw.
 */
export function escapeForTerminal(text: string): string {
  return text
    .replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)
    .replace(LONE_SURROGATE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * JSON for a terminal: JSON.stringify escapes C0 controls but leaves C1 controls and lone
 * surrogates raw (valid JSON, yet unsafe to print); this escapes those too. The result parses to
 * the same value.
 */
export function terminalSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(LONE_SURROGATE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
