import { CsvError, parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { CATALOG_LIMITS as L } from '../../common/bridge/retail-limits';
import { catalogBarcode, type CatalogBarcode } from './catalog-barcode';
import { importRefused, importRefusedFor, Problems } from './catalog-problem';
import { hasControlCharacter } from './plain-text';

/**
 * The catalog's CSV format (docs/catalog-csv.md): RFC 4180 as csv-parse reads it (quoted fields may hold
 * commas, quotes and line breaks; CRLF, LF or CR line ends; a UTF-8 byte order mark is skipped), a header
 * row naming the columns, one item per row. This file reads a file into rows checked field by field (each
 * problem named by the line its row starts on) and writes rows back; catalog-store.ts applies them to the
 * database in one transaction.
 */

export const CSV_COLUMNS = [
  'sku',
  'name',
  'price',
  'tax_class',
  'category',
  'barcodes',
  'open_price',
  'quick_key',
  'price_embedded_code',
  'active',
] as const;
export type CsvColumn = (typeof CSV_COLUMNS)[number];

/** A row cannot be an item without these; the others may be left out (an update keeps what was there). */
export const REQUIRED_COLUMNS: readonly CsvColumn[] = ['sku', 'name', 'price', 'tax_class'];

/** Several barcodes in one cell, separated by this (no barcode may hold it). */
export const BARCODE_SEPARATOR = '|';

/** One data row, its fields read; absent columns are absent. */
export type CsvItemRow = {
  /** The file line the row starts on (the header is line 1). */
  line: number;
  sku: string;
  name: string;
  priceCents: number;
  taxClass: string;
  category?: string | null;
  barcodes?: CatalogBarcode[];
  openPrice?: boolean;
  quickKey?: number | null;
  embeddedCode?: string | null;
  active?: boolean;
};

export type ParsedCsv = { columns: CsvColumn[]; rows: CsvItemRow[] };

/** What an exported row holds (names, codes and labels as the database has them). */
export type CsvExportRecord = {
  sku: string;
  name: string;
  priceCents: number;
  taxClass: string;
  category: string | null;
  barcodes: string[];
  openPrice: boolean;
  quickKey: number | null;
  embeddedCode: string | null;
  active: boolean;
};

// --- money as decimal text

/**
 * "12.34", "12.3", "12", "0.99" → cents, from the digits (never through a float). No sign, currency
 * symbol, thousands separator or exponent: a price cell is read one way only. Undefined otherwise.
 */
export function centsFromDecimal(text: string): number | undefined {
  const m = /^(\d{1,6})(?:\.(\d{1,2}))?$/.exec(text);
  if (!m?.[1]) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** Cents → "12.34": the export's price, read back by `centsFromDecimal` to the same cents. */
export function decimalOfCents(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

// --- spreadsheet formula guard

/**
 * A cell starting with = + - @ (or a tab or carriage return) is run as a formula by spreadsheet programs
 * (OWASP "CSV injection"): the export writes such a text field with a leading apostrophe, and the import
 * takes one leading apostrophe away when a formula character or another apostrophe follows it, so an
 * export imports back to exactly what was exported (a name like "'Tis the season" passes untouched).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export function guardFormula(text: string): string {
  return FORMULA_START.test(text) || /^'[=+\-@\t\r']/.test(text) ? `'${text}` : text;
}

export function unguardFormula(text: string): string {
  return /^'[=+\-@\t\r']/.test(text) ? text.slice(1) : text;
}

// --- reading

const YES = new Set(['yes', 'y', 'true', '1']);
const NO = new Set(['no', 'n', 'false', '0']);

/** A header cell → its column: case, spaces and dashes do not matter ("Tax class" is tax_class). */
function columnOf(header: string): CsvColumn | undefined {
  const name = header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  const aliases: Readonly<Record<string, CsvColumn>> = {
    barcode: 'barcodes',
    embedded_code: 'price_embedded_code',
  };
  const column = aliases[name] ?? name;
  return (CSV_COLUMNS as readonly string[]).includes(column) ? (column as CsvColumn) : undefined;
}

function text(value: string, what: 'SKU' | 'name', max: number, problems: Problems): string {
  const t = unguardFormula(value.trim());
  const id = what === 'SKU' ? 'sku' : 'name';
  if (t === '') problems.add(`the ${what} is empty`, `row.${id}Empty`);
  else if (t.length > max)
    problems.add(`the ${what} is longer than ${max} characters`, `row.${id}TooLong`, { max });
  else if (hasControlCharacter(t))
    problems.add(`the ${what} holds a line break or another control character`, `row.${id}Control`);
  return t;
}

function flag(value: string, what: string, problems: Problems): boolean | undefined {
  const v = value.trim().toLowerCase();
  if (v === '') return undefined;
  if (YES.has(v)) return true;
  if (NO.has(v)) return false;
  problems.add(`${what} "${value}" is yes or no`, 'row.yesNo', { column: what, value });
  return undefined;
}

function quote(value: string): string {
  return value.length > 24 ? `"${value.slice(0, 24)}…"` : `"${value}"`;
}

/** The fields of one data row; `problems` gets what is wrong with them, in the row's own words. */
function readRow(line: number, columns: CsvColumn[], fields: string[], problems: Problems): CsvItemRow {
  const cell = (c: CsvColumn): string | undefined => {
    const i = columns.indexOf(c);
    return i < 0 ? undefined : (fields[i] ?? '');
  };
  const row: CsvItemRow = { line, sku: '', name: '', priceCents: 0, taxClass: '' };
  row.sku = text(cell('sku') ?? '', 'SKU', L.skuLength, problems);
  row.name = text(cell('name') ?? '', 'name', L.nameLength, problems);
  const price = (cell('price') ?? '').trim();
  const cents = centsFromDecimal(price);
  if (price === '') problems.add('the price is empty', 'row.priceEmpty');
  else if (cents === undefined)
    problems.add(
      `the price ${quote(price)} is not written like 12.34 (digits, a dot, at most two decimals)`,
      'row.priceShape',
      { price: quote(price) },
    );
  else if (cents > L.maxPriceCents)
    problems.add(`the price ${price} is more than 999999.99`, 'row.priceMax', { price });
  else row.priceCents = cents;
  row.taxClass = (cell('tax_class') ?? '').trim();
  if (row.taxClass === '') problems.add('the tax class is empty', 'row.taxClassEmpty');

  const category = cell('category');
  if (category !== undefined) {
    const c = unguardFormula(category.trim());
    if (c.length > L.categoryNameLength)
      problems.add(`the category is longer than ${L.categoryNameLength} characters`, 'row.categoryTooLong', {
        max: L.categoryNameLength,
      });
    else if (hasControlCharacter(c))
      problems.add('the category holds a control character', 'row.categoryControl');
    row.category = c === '' ? null : c;
  }
  const barcodes = cell('barcodes');
  if (barcodes !== undefined) {
    const labels = barcodes
      .split(BARCODE_SEPARATOR)
      .map((b) => unguardFormula(b.trim()))
      .filter((b) => b !== '');
    if (labels.length > L.barcodesPerItem)
      problems.add(`an item has at most ${L.barcodesPerItem} barcodes`, 'row.tooManyBarcodes', {
        max: L.barcodesPerItem,
      });
    row.barcodes = [];
    for (const label of labels) {
      const r = catalogBarcode(label);
      if (!r.ok) problems.add(r.problem.replace(/\.$/, ''), r.messageId, r.params);
      else if (row.barcodes.some((b) => b.kind === r.barcode.kind && b.code === r.barcode.code))
        problems.add(`barcode ${label} is listed twice`, 'row.barcodeTwice', { label });
      else row.barcodes.push(r.barcode);
    }
  }
  const open = cell('open_price');
  if (open !== undefined) row.openPrice = flag(open, 'open_price', problems) ?? false;
  const active = cell('active');
  if (active !== undefined) row.active = flag(active, 'active', problems) ?? true;
  const quick = cell('quick_key');
  if (quick !== undefined) {
    const q = quick.trim();
    if (q === '') row.quickKey = null;
    else if (/^\d{1,3}$/.test(q) && Number(q) >= 1 && Number(q) <= L.maxQuickKey) row.quickKey = Number(q);
    else
      problems.add(`quick_key ${quote(q)} is a number from 1 to ${L.maxQuickKey}`, 'row.quickKey', {
        value: quote(q),
        max: L.maxQuickKey,
      });
  }
  const embedded = cell('price_embedded_code');
  if (embedded !== undefined) {
    const e = embedded.trim();
    if (e === '') row.embeddedCode = null;
    else if (/^\d{5}$/.test(e)) row.embeddedCode = e;
    else problems.add(`price_embedded_code ${quote(e)} is 5 digits`, 'row.embedded', { value: quote(e) });
  }
  return row;
}

/** Several rows may not claim one SKU, barcode, quick key or price-embedded code. */
function crossRowProblems(rows: CsvItemRow[], problems: Problems): void {
  const seen = new Map<string, number>();
  const claim = (key: string, line: number, words: string, id: string, value: string | number) => {
    const first = seen.get(key);
    if (first === undefined) seen.set(key, line);
    else
      problems.add(`Line ${line}: ${words} is also on line ${first}.`, `row.${id}AlsoOn`, {
        line,
        value,
        first,
      });
  };
  for (const r of rows) {
    if (r.sku !== '') claim(`sku\u0000${r.sku}`, r.line, `SKU ${r.sku}`, 'sku', r.sku);
    for (const b of r.barcodes ?? [])
      claim(`barcode\u0000${b.kind}\u0000${b.code}`, r.line, `barcode ${b.label}`, 'barcode', b.label);
    if (r.quickKey != null)
      claim(`quick\u0000${r.quickKey}`, r.line, `quick key ${r.quickKey}`, 'quickKey', r.quickKey);
    if (r.embeddedCode != null)
      claim(
        `embedded\u0000${r.embeddedCode}`,
        r.line,
        `price-embedded code ${r.embeddedCode}`,
        'embedded',
        r.embeddedCode,
      );
  }
}

function lineBreaks(text: string): number {
  return text.match(/\r\n|\n|\r/g)?.length ?? 0;
}

function refuse(problems: Problems): never {
  throw importRefused(problems);
}

function refuseOne(text: string, messageId: string, params?: Record<string, string | number>): never {
  throw importRefusedFor(text, messageId, params);
}

/**
 * Reads a catalog CSV: the header, then every data row's fields. Throws CatalogProblem (`invalid`) with
 * every problem found, each naming its line, when anything is wrong: a file is taken whole or not at all.
 */
export function parseCatalogCsv(csv: string): ParsedCsv {
  if (csv.length > L.importMaxChars)
    refuseOne(`The file is larger than ${L.importMaxChars / 1024 / 1024} MiB.`, 'fileTooLarge', {
      mib: L.importMaxChars / 1024 / 1024,
    });
  // The line each record starts on, counted here from its raw text: csv-parse's own line count takes a
  // CRLF inside a quoted field for two lines. Blank lines before a record are skipped, and counted.
  type Record = { record: string[]; line: number };
  const records: Record[] = [];
  let nextLine = 1;
  try {
    parse(csv, {
      bom: true,
      raw: true,
      relax_column_count: true,
      skip_empty_lines: true,
      record_delimiter: ['\r\n', '\n', '\r'],
      on_record: (output) => {
        // With `raw`, each record comes as { record, raw } (csv-parse's typings do not say so).
        const { record, raw } = output as unknown as { record: string[]; raw: string };
        const blank = /^(?:\r\n|\n|\r)*/.exec(raw)?.[0] ?? '';
        records.push({ record, line: nextLine + lineBreaks(blank) });
        nextLine += lineBreaks(raw);
        return null;
      },
    });
  } catch (error) {
    if (error instanceof CsvError) {
      const reason = error.message.replace(/ at line \d+.*$/s, '').replace(/^[^:]*: /, '');
      refuseOne(`Line ${nextLine}: the file cannot be read as CSV (${reason.toLowerCase()}).`, 'notCsv', {
        line: nextLine,
        reason: reason.toLowerCase(),
      });
    }
    throw error;
  }
  const header = records[0];
  if (!header)
    refuseOne('The file is empty: line 1 is the header row (sku,name,price,tax_class,…).', 'emptyFile');
  const problems = new Problems();
  const columns: CsvColumn[] = [];
  for (const cell of header.record) {
    const c = columnOf(cell);
    if (!c)
      problems.add(
        `Line 1: unknown column "${cell.trim()}" (the columns are ${CSV_COLUMNS.join(', ')}).`,
        'unknownColumn',
        { line: 1, column: cell.trim(), columns: CSV_COLUMNS.join(', ') },
      );
    else if (columns.includes(c))
      problems.add(`Line 1: the column ${c} is there twice.`, 'columnTwice', { line: 1, column: c });
    else columns.push(c);
  }
  for (const c of REQUIRED_COLUMNS)
    if (!columns.includes(c))
      problems.add(`Line 1: the header has no ${c} column.`, 'missingColumn', { line: 1, column: c });
  if (problems.length > 0) refuse(problems);
  if (records.length - 1 > L.importMaxRows)
    refuseOne(`The file has more than ${L.importMaxRows} rows.`, 'tooManyRows', { max: L.importMaxRows });

  const rows: CsvItemRow[] = [];
  for (const r of records.slice(1)) {
    const line = r.line;
    if (r.record.length !== header.record.length) {
      problems.add(
        `Line ${line}: the row has ${r.record.length} field${r.record.length === 1 ? '' : 's'}, the header has ${header.record.length}.`,
        'fieldCount',
        { line, count: r.record.length, header: header.record.length },
      );
      continue;
    }
    const mine = new Problems();
    rows.push(readRow(line, columns, r.record, mine));
    problems.addOnLine(line, mine, (p) => `Line ${line}: ${p}.`);
  }
  crossRowProblems(rows, problems);
  if (problems.length > 0) refuse(problems);
  return { columns, rows };
}

// --- writing

/**
 * `records` as CSV text, CRLF line ends as RFC 4180 writes them; `withHeader` starts the file: a UTF-8 byte
 * order mark (so a spreadsheet reads accents right; the import skips it) and the header row.
 */
export function catalogCsv(records: readonly CsvExportRecord[], withHeader: boolean): string {
  const rows = records.map((r) => [
    guardFormula(r.sku),
    guardFormula(r.name),
    decimalOfCents(r.priceCents),
    r.taxClass,
    r.category === null ? '' : guardFormula(r.category),
    r.barcodes.map(guardFormula).join(BARCODE_SEPARATOR),
    r.openPrice ? 'yes' : 'no',
    r.quickKey === null ? '' : String(r.quickKey),
    r.embeddedCode ?? '',
    r.active ? 'yes' : 'no',
  ]);
  return stringify(withHeader ? [[...CSV_COLUMNS], ...rows] : rows, {
    record_delimiter: '\r\n',
    bom: withHeader,
  });
}
