import { readBarcodeScan } from '../../protocols/barcode-scan';
import { HidPosScanAssembler } from '../../protocols/hid-pos-scanner';
import type { PriceEmbeddedLayout } from '../../protocols/upc-price-embedded';
import { parseCommandArgs, ToolError, type ToolCommand } from '../command';

const usage =
  "barcode '<scanner text>' [--layout item5-verifier-price4|item5-price5]  |  barcode --hid <report hex> [<report hex> ...]";

const LAYOUTS: readonly PriceEmbeddedLayout[] = ['item5-verifier-price4', 'item5-price5'];

/**
 * What the terminal makes of a scan: the text a serial or wedge scanner sent (AIM identifier included),
 * or the HID POS report(s) a recorder captured. The same barcode rule the scanner driver applies.
 */
export const barcode: ToolCommand = {
  summary:
    'read a barcode scan (AIM identifier, check digits, UPC-E, price-embedded UPC-A) or HID POS reports',
  usage,
  run(args) {
    const { values, positionals } = parseCommandArgs(args, { strings: ['layout'], booleans: ['hid'] }, usage);
    const layout = values.layout;
    if (layout !== undefined && !LAYOUTS.includes(layout as PriceEmbeddedLayout))
      throw new ToolError('usage', `--layout is ${LAYOUTS.join(' or ')}`);
    const options = layout ? { priceEmbeddedLayout: layout as PriceEmbeddedLayout } : {};
    if (positionals.length === 0) throw new ToolError('usage', `usage: ${usage}`);
    if (!values.hid) {
      if (positionals.length > 1) throw new ToolError('usage', `usage: ${usage}`);
      return readBarcodeScan(positionals[0] ?? '', options);
    }
    const assembler = new HidPosScanAssembler();
    for (const [i, h] of positionals.entries()) {
      const clean = h.replace(/[\s:]/g, '');
      if (!/^([0-9a-fA-F]{2})+$/.test(clean)) throw new ToolError('hex', `report ${i + 1} is not hex`);
      const r = assembler.push(Uint8Array.from(Buffer.from(clean, 'hex')));
      if (r.kind === 'error') throw new ToolError('hid-report', `report ${i + 1}: ${r.message}`);
      if (r.kind === 'scan') {
        if (i !== positionals.length - 1)
          throw new ToolError('hid-report', `report ${i + 1} ended the scan early`);
        return {
          aimId: r.scan.aimId ?? null,
          ...readBarcodeScan(r.scan.text, { ...options, ...(r.scan.aimId ? { aimId: r.scan.aimId } : {}) }),
        };
      }
    }
    throw new ToolError('hid-report', 'the last report says more data follow (Decode Data Continued)');
  },
};
