import { describe, expect, it } from 'vitest';
import {
  CustomerDisplayScreen,
  cursorTo,
  encodeDisplayScreen,
  encodeDisplaySetup,
} from '../../../native/protocols/escpos-customer-display';

const bytes = (...parts: (number[] | string)[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...p].map((c) => c.charCodeAt(0)) : p)));

describe('ESC/POS customer display commands (EPSON command mode)', () => {
  it('sets the display up: ESC @, US MD1, cursor off, character table 0', () => {
    expect([...encodeDisplaySetup()]).toEqual([0x1b, 0x40, 0x1f, 0x01, 0x1f, 0x43, 0x00, 0x1b, 0x74, 0x00]);
  });
  it('addresses each row with US $ x y and fills it to 20 columns', () => {
    const b = encodeDisplayScreen(['HELLO', 'WORLD']);
    expect([...b.subarray(0, 4)]).toEqual([0x1f, 0x24, 1, 1]);
    expect(Buffer.from(b.subarray(4, 24)).toString('latin1')).toBe('HELLO               ');
    expect([...b.subarray(24, 28)]).toEqual([0x1f, 0x24, 1, 2]);
    expect(b).toHaveLength(48);
  });
  it('writes PC437’s accented letters as its bytes (Spanish: á é í ó ú ñ Ñ ü É ¿ ¡)', () => {
    const b = encodeDisplayScreen(['¡AÑO ÉXITO!', '¿Qué tal? ñú']);
    expect([...b.subarray(4, 15)]).toEqual([
      0xad, 0x41, 0xa5, 0x4f, 0x20, 0x90, 0x58, 0x49, 0x54, 0x4f, 0x21,
    ]);
    expect([...b.subarray(28, 40)]).toEqual([
      0xa8, 0x51, 0x75, 0x82, 0x20, 0x74, 0x61, 0x6c, 0x3f, 0x20, 0xa4, 0xa3,
    ]);
    const screen = new CustomerDisplayScreen();
    screen.apply(Uint8Array.from([...encodeDisplaySetup(), ...b]));
    expect(screen.lines).toEqual(['¡AÑO ÉXITO!         ', '¿Qué tal? ñú        ']);
  });
  it('refuses rows over 20 characters or with characters the display’s table lacks', () => {
    expect(() => encodeDisplayScreen(['X'.repeat(21), ''])).toThrow(RangeError);
    expect(() => encodeDisplayScreen(['ÁREA', ''])).toThrow(RangeError);
    expect(() => encodeDisplayScreen(['5 €', ''])).toThrow(RangeError);
    expect(() => cursorTo(21, 1)).toThrow(RangeError);
  });
});

describe('CustomerDisplayScreen (the display side)', () => {
  it('shows what the terminal wrote, also when the bytes arrive split inside a command', () => {
    const screen = new CustomerDisplayScreen();
    const all = Uint8Array.from([
      ...encodeDisplaySetup(),
      ...encodeDisplayScreen(
        ['MILK 2%          3.49', 'SUBTOTAL        3.49'].map((r) => r.slice(0, 20)) as [string, string],
      ),
    ]);
    for (let i = 0; i < all.length; i += 3) screen.apply(all.subarray(i, i + 3));
    expect(screen.lines).toEqual(['MILK 2%          3.4', 'SUBTOTAL        3.49']);
    expect(screen.cursorVisible).toBe(false);
    expect(screen.displayMode).toBe('overwrite');
  });
  it('wraps to home in overwrite mode and scrolls up in vertical scroll mode', () => {
    const over = new CustomerDisplayScreen();
    over.apply(bytes('A'.repeat(40), 'B'));
    expect(over.lines[0]).toBe('B' + 'A'.repeat(19));
    const scroll = new CustomerDisplayScreen();
    scroll.apply(bytes([0x1f, 0x02], 'A'.repeat(40), 'B'));
    expect(scroll.lines).toEqual(['A'.repeat(20), 'B'.padEnd(20)]);
  });
  it('clears the screen (CLR), the cursor line (CAN), and resets on ESC @', () => {
    const s = new CustomerDisplayScreen();
    s.apply(bytes('TOP', cursorTo(1, 2), 'BOTTOM'));
    s.apply(bytes([0x18]));
    expect(s.lines).toEqual(['TOP'.padEnd(20), ' '.repeat(20)]);
    s.apply(bytes([0x0c]));
    expect(s.lines).toEqual([' '.repeat(20), ' '.repeat(20)]);
    s.apply(bytes('X', [0x1f, 0x02, 0x1b, 0x40]));
    expect(s.lines[0]).toBe(' '.repeat(20));
    expect(s.displayMode).toBe('overwrite');
  });
  it('shows bytes PC437 is not modelled for (0xB0-0xFF) as ? and ignores unknown control bytes', () => {
    const s = new CustomerDisplayScreen();
    s.apply(Uint8Array.from([0x41, 0x07, 0xe9, 0x42]));
    expect(s.lines[0]).toBe('A?B'.padEnd(20));
  });
});
