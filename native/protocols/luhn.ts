// rule: luhn-check
/** ISO/IEC 7812-1 Annex B check digit (the "Luhn" mod-10 algorithm). */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d{2,19}$/.test(digits)) return false;
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}
