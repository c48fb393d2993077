/**
 * Code page 437's accented letters and Spanish punctuation, bytes 0x80-0xAF: the character table a pole
 * display uses after ESC t 0 (the table the driver selects, escpos-customer-display.ts). The rest of the
 * upper half (box drawing, Greek, maths) is not text a customer reads and is not mapped.
 *
 * Spanish fits in it but for the capitals Á Í Ó Ú (PC437 has É and Ñ only): those lose their accent.
 */
const UPPER = 'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»';

const FIRST = 0x80;

const BYTE_OF = new Map<string, number>([...UPPER].map((c, i) => [c, FIRST + i]));

/** The byte PC437 shows `char` with, or undefined when it has none (printable ASCII is itself). */
export function pc437Byte(char: string): number | undefined {
  const code = char.length === 1 ? char.charCodeAt(0) : -1;
  if (code >= 0x20 && code <= 0x7e) return code;
  return BYTE_OF.get(char);
}

/** The character PC437 shows for `byte` in 0x20-0x7E and 0x80-0xAF, else undefined. */
export function pc437Char(byte: number): string | undefined {
  if (byte >= 0x20 && byte <= 0x7e) return String.fromCharCode(byte);
  return byte >= FIRST ? [...UPPER][byte - FIRST] : undefined;
}
