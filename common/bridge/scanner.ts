import { Type } from 'typebox';

/** The symbologies a scan is read as (native's barcode rule names the same). */
export const SYMBOLOGIES = [
  'upc-a',
  'upc-e',
  'ean-13',
  'ean-8',
  'code-128',
  'gs1-128',
  'code-39',
  'code-93',
  'codabar',
  'interleaved-2-of-5',
  'gs1-databar',
  'pdf417',
  'qr',
  'data-matrix',
  'aztec',
  'unknown',
] as const;
export type SymbologyName = (typeof SYMBOLOGIES)[number];

export const SymbologySchema = Type.Enum(SYMBOLOGIES, { problem: 'Unknown symbology.' });

/**
 * One scan, as every scanner kind delivers it (event `scanner.scanned`). A scan is never an amount: its
 * one money field is a price-embedded label's item price, for that item's ticket line.
 */
export type ScanView = {
  /** This scan's own id: the sale screen that claims it first (`scanner.claim`) rings it, no other. */
  scanId: string;
  source: 'serial' | 'hid' | 'wedge';
  symbology: SymbologyName;
  /** The symbol's data without identifier or suffix: EAN/UPC digits as printed, other codes' text as-is. */
  data: string;
  aimId?: string;
  /** False: a misread or unusable scan, `problem` says why ("scan it again"). Never look it up. */
  validated: boolean;
  checkedBy: 'check-digit' | 'scanner';
  problem?: string;
  /** EAN/UPC: the 14-digit GTIN a catalog is keyed by. */
  gtin?: string;
  priceEmbedded?: { itemCode: string; priceCents: number };
  at: number;
};

/**
 * How the screens tell a keyboard-wedge scan from typing (common/wedge-scan.ts), when the scanner is a
 * keyboard wedge (or the sandbox's simulated one). `null` from `scanner.wedgeSettings`: no wedge scanner.
 */
export type WedgeSettingsView = {
  prefix: string;
  suffix: 'Enter' | 'Tab' | 'none';
  minLength: number;
  maxGapMs: number;
  maxMeanGapMs: number;
};

/** What `simulator.scan` sends, and how (sandbox only). */
export const SimulatorScanSchema = Type.Object({
  symbology: SymbologySchema,
  data: Type.String({ minLength: 1, maxLength: 256, problem: 'A barcode is 1 to 256 characters.' }),
  via: Type.Enum(['serial', 'hid', 'wedge'], { problem: 'A scan goes via serial, hid or wedge.' }),
});
