import { randomInt } from 'node:crypto';

/**
 * What a PIN may be. 4 to 8 digits (the PIN pad of a counter, and the field's length on every screen). An
 * employee choosing their own may not pick one of the PINs tried first by anyone guessing: one digit
 * repeated (0000, 1111), a run up or down (1234, 9876, 0123), a pair repeated (1212, 696969). The rule is
 * public and needs no look-up, so refusing such a PIN tells nobody anything about anyone else's.
 */

export const PIN_MIN_LENGTH = 4;
export const PIN_MAX_LENGTH = 8;
/** Length of the one-time PINs a manager hands over (longer than most chosen ones: it travels on paper). */
export const ONE_TIME_PIN_LENGTH = 6;

export function isPinShape(pin: unknown): pin is string {
  return typeof pin === 'string' && /^\d{4,8}$/.test(pin);
}

// rule: employee-pin
export function isWeakPin(pin: string): boolean {
  const digits = [...pin].map(Number);
  const steps = digits.slice(1).map((d, i) => d - (digits[i] ?? 0));
  const run = steps.every((s) => s === 1) || steps.every((s) => s === -1);
  const pair = pin.length % 2 === 0 && pin === pin.slice(0, 2).repeat(pin.length / 2);
  return run || pair || new Set(digits).size === 1;
}

/** A random one-time PIN (CSPRNG), never a weak one. The caller makes sure nobody holds it. */
export function randomOneTimePin(): string {
  for (;;) {
    const pin = String(randomInt(0, 10 ** ONE_TIME_PIN_LENGTH)).padStart(ONE_TIME_PIN_LENGTH, '0');
    if (!isWeakPin(pin)) return pin;
  }
}
