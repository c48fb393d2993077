/**
 * The font size of a money figure that must never clip in its box: full size up to nine characters
 * ("$9,999.99"), and smaller in proportion beyond, so the keypad's widest amount ("$999,999.99") keeps
 * the width of "$9,999.99" at full size.
 */
export function figureFontSize(text: string, fullRem: number): string {
  const scale = text.length <= 9 ? 1 : 9 / text.length;
  return `${(fullRem * scale).toFixed(3)}rem`;
}
