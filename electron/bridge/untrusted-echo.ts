/**
 * How much of a caller's own text an error may say back. A command name comes from whoever holds a
 * carrier (any page in the window over IPC, any local process with the secret over the socket); an answer
 * that repeats it whole lets that caller grow answers and logs at will, and its control characters
 * (ESC sequences, CR/LF, NUL, the Unicode line separators, bidi overrides) can forge lines in a log or a
 * terminal that prints them. Both carriers answer through the dispatcher, so this one rule covers both.
 */

/** The most of the caller's text an answer repeats, in characters (every command name is far shorter). */
export const ECHO_MAX_CHARS = 48;

/** C0, DEL and C1 controls, the line/paragraph separators, and the bidi embedding/override/isolate marks. */
export function unprintable(char: string): boolean {
  const c = char.codePointAt(0) ?? 0;
  return (
    c <= 0x1f ||
    (c >= 0x7f && c <= 0x9f) ||
    c === 0x2028 ||
    c === 0x2029 ||
    (c >= 0x202a && c <= 0x202e) ||
    (c >= 0x2066 && c <= 0x2069)
  );
}

/** The caller's text as an answer may quote it: controls as `?`, at most ECHO_MAX_CHARS, `…` if cut. */
export function untrustedEcho(text: string): string {
  const head = Array.from(text.slice(0, ECHO_MAX_CHARS * 2)).slice(0, ECHO_MAX_CHARS + 1);
  const cut = head.length > ECHO_MAX_CHARS;
  const shown = head.slice(0, ECHO_MAX_CHARS).map((ch) => (unprintable(ch) ? '?' : ch));
  return shown.join('') + (cut ? '…' : '');
}
