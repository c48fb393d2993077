/**
 * ESC/POS receipt printers, docs/devices.md §6: receipts built through
 * @point-of-sale/receipt-printer-encoder (we own only the transport), the DLE EOT real-time status
 * bytes, and a stream decoder for the printer simulator. Pure: no I/O.
 */
import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';

export const ESC = 0x1b;
export const GS = 0x1d;
export const FS_ESCPOS = 0x1c;
export const DLE = 0x10;
export const EOT_ESCPOS = 0x04;
export const LF = 0x0a;

export type Alignment = 'left' | 'center' | 'right';

export type ReceiptLine = {
  text: string;
  bold?: boolean;
  align?: Alignment;
  /** Double width and height (`GS ! 0x11`), for totals. */
  large?: boolean;
};

/**
 * A Code 128 symbol of `code128` (printable ASCII), centred, its text printed under it (HRI below): the
 * printer draws the bars and computes the check character itself (`GS k 73`, code set B).
 */
export type ReceiptCode = { code128: string };

export type ReceiptOptions = {
  /** Characters per line in font A: 42 on most 80 mm printers, 32 on 58 mm. Default 42. */
  columns?: number;
  /** Default 'partial', the cut most receipt printers are set up for. */
  cut?: 'full' | 'partial' | 'none';
  /** Pulse the cash drawer after printing (`ESC p 0 25 250`). Default false. */
  openDrawer?: boolean;
  /** Blank lines fed before the cut so the last line clears the cutter. Default 4. */
  feedBeforeCut?: number;
};

/**
 * The bytes of a receipt: ESC @, the lines (a horizontal rule for `'---'`), optional drawer kick and
 * cut. The encoder pads aligned lines with spaces rather than sending ESC a, which prints the same on
 * every model.
 */
export function buildReceipt(
  lines: readonly (string | ReceiptLine | ReceiptCode)[],
  opts: ReceiptOptions = {},
): Uint8Array {
  const enc = new ReceiptPrinterEncoder({
    language: 'esc-pos',
    columns: opts.columns ?? 42,
    feedBeforeCut: opts.feedBeforeCut ?? 4,
  });
  enc.initialize();
  for (const item of lines) {
    if (typeof item !== 'string' && 'code128' in item) {
      // Two dots a module (GS w 2, the narrowest most 203 dpi printers read back reliably) and 60 dots
      // high: a 20-character receipt number is about 490 dots, inside an 80 mm printer's 512 to 576.
      enc.align('center');
      enc.barcode(item.code128, 'code128', { height: 60, width: 1, text: 'below' });
      enc.align('left');
      continue;
    }
    const line: ReceiptLine = typeof item === 'string' ? { text: item } : item;
    if (line.text === '---') {
      enc.rule();
      continue;
    }
    enc.align(line.align ?? 'left');
    if (line.bold) enc.bold(true);
    if (line.large) enc.size(2, 2);
    enc.line(line.text);
    if (line.large) enc.size(1, 1);
    if (line.bold) enc.bold(false);
  }
  enc.align('left');
  if (opts.openDrawer) enc.raw(DRAWER_KICK);
  const cut = opts.cut ?? 'partial';
  if (cut !== 'none') enc.cut(cut);
  return enc.encode();
}

/** `ESC p 0 25 250`: pulse drawer pin 2, 50 ms on, 500 ms off (§6, Bixolon SRP-F310 p.48). */
export const DRAWER_KICK: Readonly<Uint8Array> = Uint8Array.of(ESC, 0x70, 0x00, 0x19, 0xfa);

/** `ESC p m t1 t2`; times are rounded to the command's 2 ms units. */
export function drawerKick(pin: 2 | 5 = 2, onMs = 50, offMs = 500): Uint8Array {
  const t = (ms: number): number => Math.min(255, Math.max(1, Math.round(ms / 2)));
  return Uint8Array.of(ESC, 0x70, pin === 2 ? 0 : 1, t(onMs), t(offMs));
}

export type StatusKind = 1 | 2 | 3 | 4;

/** `DLE EOT n`: real-time status request; the printer answers one byte at once (§6). */
export function statusRequest(n: StatusKind): Uint8Array {
  return Uint8Array.of(DLE, EOT_ESCPOS, n);
}

/** n=1 printer status. */
export type PrinterStatus = {
  n: 1;
  valid: boolean;
  /** Drawer kick-out connector pin 3 is high (drawer open or closed, per the drawer's wiring). */
  drawerPin3High: boolean;
  offline: boolean;
  waitingForOnlineRecovery: boolean;
  feedButtonPressed: boolean;
};
/** n=2 offline cause. */
export type OfflineStatus = {
  n: 2;
  valid: boolean;
  coverOpen: boolean;
  feedButtonFeeding: boolean;
  stoppedAtPaperEnd: boolean;
  error: boolean;
};
/** n=3 error cause. */
export type ErrorStatus = {
  n: 3;
  valid: boolean;
  mechanicalError: boolean;
  autocutterError: boolean;
  unrecoverableError: boolean;
  autoRecoverableError: boolean;
};
/** n=4 roll paper sensor. */
export type PaperStatus = {
  n: 4;
  valid: boolean;
  paperNearEnd: boolean;
  paperEnd: boolean;
};
export type DleEotStatus = PrinterStatus | OfflineStatus | ErrorStatus | PaperStatus;

const bit = (b: number, i: number): boolean => ((b >> i) & 1) === 1;

/**
 * Decodes a DLE EOT reply (Epson TM-U220 p.54): bits 0 and 7 are always 0 and bits 1 and 4 always 1,
 * which is how `valid` tells a status byte from line noise. n=4 reports each sensor on two bits.
 */
export function parseDleEotStatus(n: 1, byte: number): PrinterStatus;
export function parseDleEotStatus(n: 2, byte: number): OfflineStatus;
export function parseDleEotStatus(n: 3, byte: number): ErrorStatus;
export function parseDleEotStatus(n: 4, byte: number): PaperStatus;
export function parseDleEotStatus(n: StatusKind, byte: number): DleEotStatus;
export function parseDleEotStatus(n: StatusKind, byte: number): DleEotStatus {
  const valid = (byte & 0x93) === 0x12;
  switch (n) {
    case 1:
      return {
        n,
        valid,
        drawerPin3High: bit(byte, 2),
        offline: bit(byte, 3),
        waitingForOnlineRecovery: bit(byte, 5),
        feedButtonPressed: bit(byte, 6),
      };
    case 2:
      return {
        n,
        valid,
        coverOpen: bit(byte, 2),
        feedButtonFeeding: bit(byte, 3),
        stoppedAtPaperEnd: bit(byte, 5),
        error: bit(byte, 6),
      };
    case 3:
      return {
        n,
        valid,
        mechanicalError: bit(byte, 2),
        autocutterError: bit(byte, 3),
        unrecoverableError: bit(byte, 5),
        autoRecoverableError: bit(byte, 6),
      };
    case 4:
      return {
        n,
        valid,
        paperNearEnd: bit(byte, 2) || bit(byte, 3),
        paperEnd: bit(byte, 5) || bit(byte, 6),
      };
  }
}

/** The printer conditions a simulator reports. */
export type PrinterCondition = {
  coverOpen?: boolean;
  paperEnd?: boolean;
  paperNearEnd?: boolean;
  drawerPin3High?: boolean;
};

/** The byte a printer in `c` answers to DLE EOT n (idle n=1 -> 0x12). */
export function encodeDleEotStatus(n: StatusKind, c: PrinterCondition = {}): number {
  let b = 0x12;
  const offline = (c.coverOpen ?? false) || (c.paperEnd ?? false);
  switch (n) {
    case 1:
      if (c.drawerPin3High) b |= 0x04;
      if (offline) b |= 0x08;
      break;
    case 2:
      if (c.coverOpen) b |= 0x04;
      if (c.paperEnd) b |= 0x20;
      break;
    case 3:
      break;
    case 4:
      if (c.paperNearEnd || c.paperEnd) b |= 0x0c;
      if (c.paperEnd) b |= 0x60;
      break;
  }
  return b;
}

// ---------------------------------------------------------------------------------------------------
// Stream decoder (printer simulator side)

export type PrintedLine = {
  text: string;
  /** Any character of the line was printed with these modes. */
  bold: boolean;
  large: boolean;
  underline: boolean;
  align: Alignment;
  /** A barcode printed here (the simulator's paper shows it as "[CODE 128] <text>"). */
  code?: { symbology: string; data: string };
};

export type EscPosEvent =
  | { type: 'line'; line: PrintedLine }
  /** A barcode command (`GS k`): its symbology and the text it encodes. */
  | { type: 'barcode'; symbology: string; data: string }
  | { type: 'init' }
  | { type: 'feed'; lines: number }
  | { type: 'cut'; partial: boolean }
  | { type: 'drawer'; pin: 2 | 5; onMs: number; offMs: number }
  | { type: 'status-request'; n: number };

// Code page 437 upper half (ESC t 0, the power-on default), so receipts with box rules read right.
export const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

/** Fixed parameter counts of ESC x, GS x and FS x commands (Epson ESC/POS command reference). */
const ESC_PARAMS: Readonly<Record<number, number>> = {
  0x20: 1, // ESC SP n  right-side spacing
  0x21: 1, // ESC ! n   print mode
  0x24: 2, // ESC $     absolute position
  0x25: 1, // ESC %     user-defined chars on/off
  0x2d: 1, // ESC -     underline
  0x32: 0, // ESC 2     default line spacing
  0x33: 1, // ESC 3 n   line spacing
  0x3d: 1, // ESC =     peripheral select
  0x3f: 1, // ESC ?     cancel user-defined char
  0x40: 0, // ESC @     initialise
  0x45: 1, // ESC E     bold
  0x47: 1, // ESC G     double strike
  0x4a: 1, // ESC J     feed n dots
  0x4c: 0, // ESC L     page mode
  0x4d: 1, // ESC M     font
  0x52: 1, // ESC R     international set
  0x53: 0, // ESC S     standard mode
  0x54: 1, // ESC T     page direction
  0x55: 1, // ESC U     unidirectional
  0x56: 1, // ESC V     rotate
  0x57: 8, // ESC W     page-mode area
  0x5c: 2, // ESC \     relative position
  0x61: 1, // ESC a     align
  0x63: 2, // ESC c x n panel / sensor settings
  0x64: 1, // ESC d n   print and feed n lines
  0x65: 1, // ESC e n   reverse feed
  0x69: 0, // ESC i     partial cut (legacy)
  0x6d: 0, // ESC m     partial cut (legacy)
  0x70: 3, // ESC p     drawer pulse
  0x72: 1, // ESC r     colour
  0x74: 1, // ESC t     code page
  0x75: 1, // ESC u     peripheral status
  0x76: 0, // ESC v     paper status
  0x7b: 1, // ESC {     upside down
};
const GS_PARAMS: Readonly<Record<number, number>> = {
  0x21: 1, // GS ! n    character size
  0x24: 2, // GS $      absolute vertical position
  0x2f: 1, // GS /      print downloaded image
  0x3a: 0, // GS :      macro
  0x42: 1, // GS B      reverse
  0x48: 1, // GS H      HRI position
  0x49: 1, // GS I      printer ID
  0x4c: 2, // GS L      left margin
  0x50: 2, // GS P      motion units
  0x57: 2, // GS W      print area width
  0x5c: 2, // GS \      relative vertical position
  0x5e: 3, // GS ^      macro run
  0x61: 1, // GS a      automatic status back
  0x62: 1, // GS b      smoothing
  0x66: 1, // GS f      HRI font
  0x68: 1, // GS h      barcode height
  0x72: 1, // GS r      status
  0x77: 1, // GS w      barcode width
};
const FS_PARAMS: Readonly<Record<number, number>> = {
  0x21: 1, // FS !      kanji mode
  0x26: 0, // FS &      kanji on
  0x2d: 1, // FS -      kanji underline
  0x2e: 0, // FS .      kanji off
  0x43: 1, // FS C      kanji code system
  0x53: 2, // FS S      kanji spacing
  0x57: 1, // FS W      kanji quadruple
  0x70: 2, // FS p n m  print NV image
};

// Decoder states.
const S_TEXT = 0;
const S_ESC = 1;
const S_GS = 2;
const S_FS = 3;
const S_DLE = 4;
/** Collecting a command's fixed parameters into `params`. */
const S_PARAMS = 5;
/** Skipping `skip` payload bytes (images, 2D codes). */
const S_SKIP = 6;
/** Skipping up to and including a NUL (ESC D tab stops). */
const S_UNTIL_NUL = 7;
/** A barcode's data: `skip` bytes (GS k function B), or up to a NUL (function A) when `skip` is -1. */
const S_BARCODE = 8;

/** GS k's symbology numbers: function A (0-6, NUL-ended) and function B (65 and up, counted). */
const BARCODE_SYMBOLOGIES: Readonly<Record<number, string>> = {
  0: 'upca',
  1: 'upce',
  2: 'ean13',
  3: 'ean8',
  4: 'code39',
  5: 'itf',
  6: 'codabar',
  65: 'upca',
  66: 'upce',
  67: 'ean13',
  68: 'ean8',
  69: 'code39',
  70: 'itf',
  71: 'codabar',
  72: 'code93',
  73: 'code128',
  74: 'gs1-128',
};

/** Function A's data has no length: a runaway one (no NUL) ends here, as a printer's buffer would. */
const MAX_BARCODE = 255;

/**
 * The text of `GS k 73` Code 128 data: it opens with a code set (`{A`, `{B`, `{C`); in set C each byte is
 * a pair of digits (0-99); `{{` is a brace; the other `{x` pairs (FNC1-4, SHIFT) carry no text.
 */
export function code128Text(bytes: readonly number[]): string {
  let set: 'A' | 'B' | 'C' = 'B';
  let text = '';
  for (let i = 0; i < bytes.length; i += 1) {
    const b = bytes[i] ?? 0;
    if (b === 0x7b && i + 1 < bytes.length) {
      const next = bytes[i + 1] ?? 0;
      i += 1;
      if (next === 0x41) set = 'A';
      else if (next === 0x42) set = 'B';
      else if (next === 0x43) set = 'C';
      else if (next === 0x7b) text += '{';
      continue;
    }
    if (set === 'C') text += b <= 99 ? String(b).padStart(2, '0') : '';
    else text += String.fromCharCode(b);
  }
  return text;
}

const MAX_LINE = 1024;

/**
 * Byte-stream state machine of an ESC/POS printer: text accumulates into a line that LF prints; the
 * commands that matter to a POS (initialise, modes, feed, cut, drawer pulse, DLE EOT) become events;
 * every other known command is skipped by its parameter count or payload length, and an unknown one is
 * taken to have no parameters. DLE EOT is recognised only between commands, as the manual requires
 * hosts to send it (§6: "Never embed it in another command").
 */
export class EscPosDecoder {
  private state = S_TEXT;
  private prefix = 0;
  private cmd = 0;
  private readonly params = new Uint8Array(8);
  private paramCount = 0;
  private paramNeed = 0;
  private skip = 0;
  private codes: number[] = [];
  private barcode: { symbology: string; bytes: number[] } | undefined;
  private bold = false;
  private large = false;
  private underline = false;
  private align: Alignment = 'left';
  private lineBold = false;
  private lineLarge = false;
  private lineUnderline = false;
  private codePage = 0;
  unknownCommands = 0;

  push(chunk: Uint8Array, onEvent: (event: EscPosEvent) => void): void {
    for (let i = 0; i < chunk.length; i += 1) this.byte(chunk[i] ?? 0, onEvent);
  }

  feed(chunk: Uint8Array): EscPosEvent[] {
    const out: EscPosEvent[] = [];
    this.push(chunk, (e) => out.push(e));
    return out;
  }

  /** Text received but not yet printed by a LF. */
  get pendingText(): string {
    return String.fromCharCode(...this.codes);
  }

  private byte(b: number, emit: (event: EscPosEvent) => void): void {
    switch (this.state) {
      case S_TEXT:
        if (b === ESC) this.state = S_ESC;
        else if (b === GS) this.state = S_GS;
        else if (b === FS_ESCPOS) this.state = S_FS;
        else if (b === DLE) this.state = S_DLE;
        else if (b === LF) this.printLine(emit);
        else if (b === 0x09) this.addChar(0x20);
        else if (b >= 0x20) this.addChar(b);
        // CR and other C0 controls: ignored (CR is a no-op with auto line feed off, the default).
        return;
      case S_ESC:
      case S_GS:
      case S_FS:
        this.command(b, emit);
        return;
      case S_DLE:
        this.dle(b);
        return;
      case S_PARAMS:
        if (this.paramCount < this.params.length) this.params[this.paramCount] = b;
        this.paramCount += 1;
        if (this.prefix === DLE && this.cmd === 0x14 && this.paramCount === 1 && b === 8) this.paramNeed = 8;
        if (this.paramCount >= this.paramNeed) {
          if (this.prefix === DLE) {
            this.state = S_TEXT;
            this.completeDle(emit);
          } else {
            this.complete(emit);
          }
        }
        return;
      case S_SKIP:
        this.skip -= 1;
        if (this.skip <= 0) this.state = S_TEXT;
        return;
      case S_UNTIL_NUL:
        if (b === 0) this.state = S_TEXT;
        return;
      case S_BARCODE:
        this.barcodeByte(b, emit);
        return;
    }
  }

  private startBarcode(m: number, length: number): void {
    this.barcode = { symbology: BARCODE_SYMBOLOGIES[m] ?? `m${m}`, bytes: [] };
    this.skip = length;
    this.state = S_BARCODE;
  }

  private barcodeByte(b: number, emit: (event: EscPosEvent) => void): void {
    const code = this.barcode;
    if (!code) {
      this.state = S_TEXT;
      return;
    }
    const counted = this.skip >= 0;
    if (!counted && b === 0) return this.endBarcode(emit);
    code.bytes.push(b);
    if (counted) this.skip -= 1;
    if ((counted && this.skip <= 0) || code.bytes.length >= MAX_BARCODE) this.endBarcode(emit);
  }

  private endBarcode(emit: (event: EscPosEvent) => void): void {
    const code = this.barcode;
    this.barcode = undefined;
    this.state = S_TEXT;
    if (!code) return;
    const data = code.symbology === 'code128' ? code128Text(code.bytes) : String.fromCharCode(...code.bytes);
    emit({ type: 'barcode', symbology: code.symbology, data });
  }

  private command(b: number, emit: (event: EscPosEvent) => void): void {
    this.prefix = this.state === S_ESC ? ESC : this.state === S_GS ? GS : FS_ESCPOS;
    this.cmd = b;
    this.paramCount = 0;
    let need: number | undefined;
    if (this.prefix === ESC) {
      if (b === 0x2a)
        need = 3; // ESC * m nL nH: payload length known after the parameters
      else if (b === 0x44) {
        this.state = S_UNTIL_NUL; // ESC D n1..nk NUL
        return;
      } else if (b === 0x26)
        need = 3; // ESC & y c1 c2: then per-char data (see complete)
      else need = ESC_PARAMS[b];
    } else if (this.prefix === GS) {
      if (b === 0x56)
        need = 1; // GS V m [n]
      else if (b === 0x6b)
        need = 1; // GS k m ...
      else if (b === 0x28)
        need = 3; // GS ( fn pL pH
      else if (b === 0x76)
        need = 6; // GS v 0 m xL xH yL yH
      else if (b === 0x38)
        need = 6; // GS 8 L p1 p2 p3 p4
      else if (b === 0x2a)
        need = 2; // GS * x y
      else need = GS_PARAMS[b];
    } else if (b === 0x28)
      need = 3; // FS ( fn pL pH
    else need = FS_PARAMS[b];
    if (need === undefined) {
      this.unknownCommands += 1;
      this.state = S_TEXT;
      return;
    }
    this.paramNeed = need;
    if (need === 0) this.complete(emit);
    else this.state = S_PARAMS;
  }

  private p(i: number): number {
    return this.params[i] ?? 0;
  }

  private skipBytes(n: number): void {
    if (n > 0) {
      this.skip = n;
      this.state = S_SKIP;
    } else {
      this.state = S_TEXT;
    }
  }

  private complete(emit: (event: EscPosEvent) => void): void {
    this.state = S_TEXT;
    const c = this.cmd;
    if (this.prefix === ESC) {
      switch (c) {
        case 0x40:
          this.codes = [];
          this.bold = false;
          this.large = false;
          this.underline = false;
          this.align = 'left';
          this.codePage = 0;
          emit({ type: 'init' });
          return;
        case 0x21:
          this.bold = (this.p(0) & 0x08) !== 0;
          this.large = (this.p(0) & 0x30) !== 0;
          this.underline = (this.p(0) & 0x80) !== 0;
          return;
        case 0x45:
          this.bold = (this.p(0) & 1) === 1;
          return;
        case 0x2d:
          this.underline = (this.p(0) & 3) !== 0 && this.p(0) !== 0x30;
          return;
        case 0x61: {
          const a = this.p(0) % 48;
          this.align = a === 1 ? 'center' : a === 2 ? 'right' : 'left';
          return;
        }
        case 0x74:
          this.codePage = this.p(0);
          return;
        case 0x64:
          if (this.codes.length > 0) this.printLine(emit);
          emit({ type: 'feed', lines: this.p(0) });
          return;
        case 0x69:
        case 0x6d:
          this.cut(true, emit);
          return;
        case 0x70:
          emit({
            type: 'drawer',
            pin: this.p(0) % 48 === 0 ? 2 : 5,
            onMs: this.p(1) * 2,
            offMs: this.p(2) * 2,
          });
          return;
        case 0x2a: {
          // ESC * m nL nH: 8-dot modes (m 0,1) send one byte per column, 24-dot modes (32,33) three.
          const columns = this.p(1) | (this.p(2) << 8);
          this.skipBytes(columns * (this.p(0) >= 32 ? 3 : 1));
          return;
        }
        case 0x26:
          // ESC & y c1 c2 then per-character glyph data: never sent by a POS; counted, not parsed.
          this.unknownCommands += 1;
          return;
        default:
          return;
      }
    }
    if (this.prefix === GS) {
      switch (c) {
        case 0x21:
          this.large = this.p(0) !== 0;
          return;
        case 0x56: {
          const m = this.p(0);
          if (m === 0x41 || m === 0x42 || m === 0x61 || m === 0x62 || m === 0x67 || m === 0x68) {
            // Function B..D forms carry a feed amount n.
            this.cmd = 0x100;
            this.paramNeed = 2;
            this.state = S_PARAMS;
            return;
          }
          this.cut(m === 1 || m === 0x31, emit);
          return;
        }
        case 0x100:
          this.cut(this.p(0) === 0x42 || this.p(0) === 0x62 || this.p(0) === 0x68, emit);
          return;
        case 0x6b: {
          const m = this.p(0);
          if (m <= 6) {
            this.startBarcode(m, -1);
          } else {
            this.cmd = 0x101; // GS k m n d1..dn
            this.paramNeed = 2;
            this.state = S_PARAMS;
          }
          return;
        }
        case 0x101:
          if (this.p(1) > 0) this.startBarcode(this.p(0), this.p(1));
          return;
        case 0x28:
          this.skipBytes(this.p(1) | (this.p(2) << 8));
          return;
        case 0x76:
          this.skipBytes((this.p(2) | (this.p(3) << 8)) * (this.p(4) | (this.p(5) << 8)));
          return;
        case 0x38:
          // GS 8 L p1..p4: 32-bit length after the 'L'.
          this.skipBytes(this.p(1) + this.p(2) * 0x100 + this.p(3) * 0x10000 + this.p(4) * 0x1000000);
          return;
        case 0x2a:
          this.skipBytes(this.p(0) * this.p(1) * 8);
          return;
        default:
          return;
      }
    }
    if (c === 0x28) this.skipBytes(this.p(1) | (this.p(2) << 8));
  }

  private dle(b: number): void {
    // DLE EOT n and DLE ENQ n take one parameter; DLE DC4 fn a b three (fn 8 takes eight, below).
    const need = b === EOT_ESCPOS || b === 0x05 ? 1 : b === 0x14 ? 3 : undefined;
    if (need === undefined) {
      this.unknownCommands += 1;
      this.state = S_TEXT;
      return;
    }
    this.prefix = DLE;
    this.cmd = b;
    this.paramNeed = need;
    this.paramCount = 0;
    this.state = S_PARAMS;
  }

  private completeDle(emit: (event: EscPosEvent) => void): void {
    if (this.cmd === EOT_ESCPOS) emit({ type: 'status-request', n: this.p(0) });
    else if (this.cmd === 0x14 && this.p(0) === 1) {
      // DLE DC4 1 m t: real-time drawer pulse, t x 100 ms on and off.
      emit({ type: 'drawer', pin: this.p(1) === 0 ? 2 : 5, onMs: this.p(2) * 100, offMs: this.p(2) * 100 });
    }
  }

  private cut(partial: boolean, emit: (event: EscPosEvent) => void): void {
    if (this.codes.length > 0) this.printLine(emit);
    emit({ type: 'cut', partial });
  }

  private addChar(b: number): void {
    if (this.codes.length >= MAX_LINE) return;
    this.codes.push(b);
    if (this.bold) this.lineBold = true;
    if (this.large) this.lineLarge = true;
    if (this.underline) this.lineUnderline = true;
  }

  private printLine(emit: (event: EscPosEvent) => void): void {
    let text = '';
    for (const b of this.codes) text += this.char(b);
    emit({
      type: 'line',
      line: {
        text,
        bold: this.lineBold,
        large: this.lineLarge,
        underline: this.lineUnderline,
        align: this.align,
      },
    });
    this.codes = [];
    this.lineBold = false;
    this.lineLarge = false;
    this.lineUnderline = false;
  }

  private char(b: number): string {
    if (b < 0x80) return String.fromCharCode(b);
    // PC437 is the power-on table; other tables are shown as Latin-1, close enough for WPC1252.
    return this.codePage === 0 ? (CP437_HIGH[b - 0x80] ?? '?') : String.fromCharCode(b);
  }
}
