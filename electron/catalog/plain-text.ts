/**
 * Whether a name, SKU, category or barcode holds a control character (a line break, a tab, NUL…): such
 * text breaks a receipt line, a CSV row or a pole display, so the catalog refuses it.
 */
export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}
