/**
 * Pole (customer) displays, 2 lines x 20 characters over serial, in the ESC/POS-compatible command set
 * Epson's DM-D displays defined and most pole displays emulate ("EPSON command mode"). Clauses quoted from
 * the POS-X XP8200 user manual §4.1.2 "EPSON Command Mode" and the Epson-compatible P07303 user manual
 * §7.8 "EPSON ESC/POS command list-1" (same codes in both):
 *
 *   ESC @      1B 40        initialize display (clears it, cursor home, default modes)
 *   CLR        0C           clear display screen
 *   CAN        18           clear cursor line
 *   US $ x y   1F 24 x y    move cursor to column x (1-20), row y (1-2)
 *   US MD1     1F 01        overwrite mode: after the last column of the bottom row the cursor goes home
 *   US MD2     1F 02        vertical scroll mode: writing past the bottom row scrolls the lines up
 *   US MD3     1F 03        horizontal scroll mode
 *   US C n     1F 43 n      cursor display off (0) / on (1)
 *   ESC t n    1B 74 n      select character code table (0 = PC437)
 *   HOM 0B, CR 0D, LF 0A, BS 08, HT 09   cursor home, left-most, down, left, right
 *
 * The terminal writes whole screens: each row addressed with US $ and filled to its 20 columns in
 * overwrite mode, so no mode or earlier text of the display can shift what the customer reads.
 * `CustomerDisplayScreen` is the display's side (the simulator and tests): it applies the same bytes to a
 * 2 x 20 character buffer.
 */

import { pc437Byte, pc437Char } from './pc437';

export const DISPLAY_COLUMNS = 20;
export const DISPLAY_ROWS = 2;

const ESC = 0x1b;
const US = 0x1f;

export const DISPLAY_COMMANDS = {
  initialize: [ESC, 0x40],
  clear: [0x0c],
  clearLine: [0x18],
  overwriteMode: [US, 0x01],
  verticalScrollMode: [US, 0x02],
  horizontalScrollMode: [US, 0x03],
  cursorOff: [US, 0x43, 0x00],
  cursorOn: [US, 0x43, 0x01],
  home: [0x0b],
} as const;

/** US $ x y, 1-based as the command takes them. */
export function cursorTo(column: number, row: number): number[] {
  if (column < 1 || column > DISPLAY_COLUMNS || row < 1 || row > DISPLAY_ROWS)
    throw new RangeError(`the display has ${DISPLAY_COLUMNS} columns and ${DISPLAY_ROWS} rows`);
  return [US, 0x24, column, row];
}

/** ESC t n: the character table the display maps bytes 0x80-0xFF with (0 = PC437). */
export function selectCharacterTable(table: number): number[] {
  if (!Number.isInteger(table) || table < 0 || table > 255) throw new RangeError('a table number is 0-255');
  return [ESC, 0x74, table];
}

/** What the terminal sends once when it opens the display: initialize, overwrite mode, no cursor, PC437. */
export function encodeDisplaySetup(): Uint8Array {
  return Uint8Array.from([
    ...DISPLAY_COMMANDS.initialize,
    ...DISPLAY_COMMANDS.overwriteMode,
    ...DISPLAY_COMMANDS.cursorOff,
    ...selectCharacterTable(0),
  ]);
}

/**
 * One whole screen: each row addressed and written out to its 20 columns. Rows must already be fitted
 * (pole-display-lines.ts): characters of table PC437 (printable ASCII and its accented letters, pc437.ts),
 * at most 20; shorter rows are padded with spaces.
 */
export function encodeDisplayScreen(rows: readonly [string, string]): Uint8Array {
  const out: number[] = [];
  rows.forEach((text, i) => {
    if (text.length > DISPLAY_COLUMNS)
      throw new RangeError(`row ${i + 1} is over ${DISPLAY_COLUMNS} characters`);
    const bytes = [...text.padEnd(DISPLAY_COLUMNS, ' ')].map(pc437Byte);
    if (bytes.some((b) => b === undefined))
      throw new RangeError(`row ${i + 1} has a character the display cannot show`);
    out.push(...cursorTo(1, i + 1));
    for (const b of bytes) if (b !== undefined) out.push(b);
  });
  return Uint8Array.from(out);
}

type Mode = 'overwrite' | 'vertical-scroll' | 'horizontal-scroll';

/**
 * The display's side of the command set: bytes in, a 2 x 20 screen out. Commands split across chunks are
 * completed by the next chunk, as a UART delivers them. Bytes 0x80-0xAF show PC437's letters (table 0,
 * pc437.ts), other upper-half bytes `?`; unknown control bytes are ignored, as the displays do.
 */
export class CustomerDisplayScreen {
  private rows: string[][] = [];
  private col = 0;
  private row = 0;
  private mode: Mode = 'overwrite';
  private pending: number[] = [];
  cursorVisible = true;
  characterTable = 0;

  constructor() {
    this.reset();
  }

  /** The two rows, each exactly 20 characters. */
  get lines(): [string, string] {
    return [this.rows[0]?.join('') ?? '', this.rows[1]?.join('') ?? ''];
  }

  get cursor(): { column: number; row: number } {
    return { column: this.col + 1, row: this.row + 1 };
  }

  get displayMode(): Mode {
    return this.mode;
  }

  apply(bytes: Uint8Array): void {
    for (const b of bytes) {
      this.pending.push(b);
      if (this.consume()) this.pending = [];
    }
  }

  private reset(): void {
    this.rows = Array.from({ length: DISPLAY_ROWS }, () => Array<string>(DISPLAY_COLUMNS).fill(' '));
    this.col = 0;
    this.row = 0;
    this.mode = 'overwrite';
    this.cursorVisible = true;
    this.characterTable = 0;
  }

  /** Interprets `pending` as one command or character; false while the command needs more bytes. */
  private consume(): boolean {
    const [b0, b1, b2, b3] = this.pending;
    if (b0 === undefined) return true;
    if (b0 === ESC) {
      if (b1 === undefined) return false;
      if (b1 === 0x40) this.reset();
      else if (b1 === 0x74 || b1 === 0x52) {
        if (b2 === undefined) return false;
        if (b1 === 0x74) this.characterTable = b2;
      }
      return true;
    }
    if (b0 === US) {
      if (b1 === undefined) return false;
      if (b1 === 0x01) this.mode = 'overwrite';
      else if (b1 === 0x02) this.mode = 'vertical-scroll';
      else if (b1 === 0x03) this.mode = 'horizontal-scroll';
      else if (b1 === 0x43 || b1 === 0x58 || b1 === 0x45) {
        if (b2 === undefined) return false;
        if (b1 === 0x43) this.cursorVisible = b2 === 1 || b2 === 0x31;
      } else if (b1 === 0x24) {
        if (b2 === undefined || b3 === undefined) return false;
        // Out-of-range positions are ignored by the displays.
        if (b2 >= 1 && b2 <= DISPLAY_COLUMNS && b3 >= 1 && b3 <= DISPLAY_ROWS) {
          this.col = b2 - 1;
          this.row = b3 - 1;
        }
      } else if (b1 === 0x0a) this.row = Math.max(0, this.row - 1);
      else if (b1 === 0x0d) this.col = DISPLAY_COLUMNS - 1;
      else if (b1 === 0x42) this.row = DISPLAY_ROWS - 1;
      return true;
    }
    switch (b0) {
      case 0x0c:
        this.rows = Array.from({ length: DISPLAY_ROWS }, () => Array<string>(DISPLAY_COLUMNS).fill(' '));
        this.col = 0;
        this.row = 0;
        return true;
      case 0x18:
        this.rows[this.row] = Array<string>(DISPLAY_COLUMNS).fill(' ');
        this.col = 0;
        return true;
      case 0x0b:
        this.col = 0;
        this.row = 0;
        return true;
      case 0x0d:
        this.col = 0;
        return true;
      case 0x0a:
        this.lineDown();
        return true;
      case 0x08:
        this.col = Math.max(0, this.col - 1);
        return true;
      case 0x09:
        this.advance();
        return true;
    }
    if (b0 < 0x20 || b0 === 0x7f) return true;
    const row = this.rows[this.row];
    if (row) row[this.col] = (this.characterTable === 0 ? pc437Char(b0) : undefined) ?? '?';
    this.advance();
    return true;
  }

  private advance(): void {
    this.col += 1;
    if (this.col < DISPLAY_COLUMNS) return;
    this.col = 0;
    if (this.row < DISPLAY_ROWS - 1) this.row += 1;
    else if (this.mode === 'vertical-scroll') this.scrollUp();
    // Overwrite mode (and horizontal scroll, not modelled further): back to the top-left.
    else this.row = 0;
  }

  private lineDown(): void {
    if (this.row < DISPLAY_ROWS - 1) this.row += 1;
    else if (this.mode === 'vertical-scroll') this.scrollUp();
  }

  private scrollUp(): void {
    this.rows.shift();
    this.rows.push(Array<string>(DISPLAY_COLUMNS).fill(' '));
    this.row = DISPLAY_ROWS - 1;
  }
}
