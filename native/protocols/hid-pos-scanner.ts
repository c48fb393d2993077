/**
 * HID POS bar code scanners (USB HID Point of Sale Usage Tables 1.02, usage page 0x8C "Bar Code Scanner"):
 * a scanner in HID POS mode (not keyboard mode) sends each scan in the input report of its Scanned Data
 * Report collection (usage 0x12). The report its descriptor declares, as the scanners in use build it:
 *
 *   offset  size  usage
 *   0       1     report ID 0x02
 *   1       1     Byte Count (Generic Desktop 0x3B): decoded data bytes in THIS report, 0-56
 *   2       3     Symbology Identifier 1, 2, 3 (0x8C:0xFB-0xFD): the AIM identifier, e.g. `]E0`; zeros
 *                 when the scanner is set not to send one
 *   5       56    Decoded Data (0x8C:0xFE), buffered bytes, zero-padded
 *   61      2     vendor bytes (a Honeywell "code ID" and a spare one); not used here
 *   63      1     bit 0: Decode Data Continued (0x8C:0xFF): more reports of the same scan follow
 *
 * A scan longer than 56 bytes comes as several reports, all but the last with bit 0 of byte 63 set (the
 * Access-IS LSR118 manual's worked example splits a 60-byte scan into 56 + 4). node-hid hands the report
 * with its ID byte first (64 bytes); a stack that drops the ID gives 63 bytes, also accepted.
 */

export const HID_POS_USAGE_PAGE = 0x8c;
/** Usage 0x02 "Bar Code Scanner" (application collection). */
export const HID_POS_SCANNER_USAGE = 0x02;
export const HID_POS_SCANNED_DATA_REPORT_ID = 0x02;
export const HID_POS_DATA_BYTES = 56;
export const HID_POS_REPORT_LENGTH = 64;

export type HidPosScanFragment = {
  /** The AIM identifier, when the scanner sends one. */
  aimId: string | undefined;
  data: Uint8Array;
  /** More reports of this scan follow. */
  continued: boolean;
};

export type HidPosParse = { ok: true; value: HidPosScanFragment } | { ok: false; error: string };

/** Parses one Scanned Data Report (64 bytes with its report ID, or 63 without). */
export function parseHidPosScanReport(report: Uint8Array): HidPosParse {
  let body: Uint8Array;
  if (report.length === HID_POS_REPORT_LENGTH) {
    if (report[0] !== HID_POS_SCANNED_DATA_REPORT_ID)
      return { ok: false, error: `report ID ${report[0] ?? 0} is not a scanned data report` };
    body = report.subarray(1);
  } else if (report.length === HID_POS_REPORT_LENGTH - 1) body = report;
  else return { ok: false, error: `a scanned data report is 64 bytes, not ${report.length}` };
  const count = body[0] ?? 0;
  if (count > HID_POS_DATA_BYTES) return { ok: false, error: `byte count ${count} is over 56` };
  const id = body.subarray(1, 4);
  const aimId = id[0] === 0x5d ? String.fromCharCode(...id) : undefined;
  return {
    ok: true,
    value: {
      aimId,
      data: Uint8Array.from(body.subarray(4, 4 + count)),
      continued: ((body[62] ?? 0) & 0x01) !== 0,
    },
  };
}

export type HidPosScan = { aimId: string | undefined; text: string };

/** The longest scan put together from continued reports before it is dropped as runaway (64 reports). */
const MAX_SCAN_BYTES = HID_POS_DATA_BYTES * 64;

/**
 * Puts continued reports back together. Pure bookkeeping: the driver feeds it reports and gets a scan,
 * nothing yet, or an error (a malformed report; an over-long scan). Bytes are Latin-1: a scanner's data
 * are bytes, and every byte must survive to the barcode rule unchanged.
 */
export class HidPosScanAssembler {
  private parts: Uint8Array[] = [];
  private aimId: string | undefined;
  private length = 0;

  get pending(): boolean {
    return this.parts.length > 0;
  }

  push(
    report: Uint8Array,
  ): { kind: 'scan'; scan: HidPosScan } | { kind: 'partial' } | { kind: 'error'; message: string } {
    const p = parseHidPosScanReport(report);
    if (!p.ok) {
      this.reset();
      return { kind: 'error', message: p.error };
    }
    if (this.parts.length === 0) this.aimId = p.value.aimId;
    this.parts.push(p.value.data);
    this.length += p.value.data.length;
    if (this.length > MAX_SCAN_BYTES) {
      this.reset();
      return { kind: 'error', message: 'a scan ran over 64 reports without ending' };
    }
    if (p.value.continued) return { kind: 'partial' };
    const bytes = new Uint8Array(this.length);
    let at = 0;
    for (const part of this.parts) {
      bytes.set(part, at);
      at += part.length;
    }
    const scan = { aimId: this.aimId, text: String.fromCharCode(...bytes) };
    this.reset();
    return { kind: 'scan', scan };
  }

  reset(): void {
    this.parts = [];
    this.aimId = undefined;
    this.length = 0;
  }
}

/**
 * The reports a HID POS scanner sends for one scan, with the report ID first as node-hid delivers them
 * (the simulator's side; tests also build recorded reports with it).
 */
export function buildHidPosScanReports(text: string, aimId?: string): Uint8Array[] {
  const bytes = Uint8Array.from([...text].map((c) => c.charCodeAt(0) & 0xff));
  const reports: Uint8Array[] = [];
  let offset = 0;
  do {
    const chunk = bytes.subarray(offset, offset + HID_POS_DATA_BYTES);
    offset += chunk.length;
    const r = new Uint8Array(HID_POS_REPORT_LENGTH);
    r[0] = HID_POS_SCANNED_DATA_REPORT_ID;
    r[1] = chunk.length;
    if (aimId !== undefined) for (let i = 0; i < 3; i += 1) r[2 + i] = aimId.charCodeAt(i) & 0xff;
    r.set(chunk, 5);
    if (offset < bytes.length) r[63] = 0x01;
    reports.push(r);
  } while (offset < bytes.length);
  return reports;
}
