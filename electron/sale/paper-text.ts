import { CP437_HIGH } from '../../native/protocols/escpos';

/**
 * Text as the receipt printer can print it. The printer runs its power-on character table, PC437
 * (native/protocols/escpos.ts), which has the Spanish lowercase vowels with accents, ñ, Ñ, É, ü, ¿ and ¡
 * but not Á, Í, Ó or Ú: those are printed without their accent (uppercase Spanish often drops it anyway),
 * the typographic minus, dashes and quotes as ASCII, and anything else the table lacks as its letters
 * without marks — never as the "?" the encoder would print.
 */
const PRINTABLE = new Set<string>([...CP437_HIGH]);

const FOLDS: Readonly<Record<string, string>> = {
  '−': '-',
  '–': '-',
  '—': '-',
  '‘': "'",
  '’': "'",
  '“': '"',
  '”': '"',
  '…': '...',
  '\u202f': ' ',
};

function printableChar(c: string): string {
  const code = c.codePointAt(0) ?? 0;
  if ((code >= 0x20 && code < 0x7f) || PRINTABLE.has(c)) return c;
  const folded = FOLDS[c];
  if (folded !== undefined) return folded;
  const bare = c.normalize('NFD').replace(/\p{M}/gu, '');
  return bare !== c && [...bare].every((b) => b.charCodeAt(0) < 0x7f) ? bare : '?';
}

export function paperText(text: string): string {
  let out = '';
  for (const c of text) out += printableChar(c);
  return out;
}
