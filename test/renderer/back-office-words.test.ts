import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeError, MessageWords } from '../../common/bridge/contract';
import type { CatalogItemInput } from '../../common/bridge/catalog';
import { parseCatalogCsv } from '../../electron/catalog/catalog-csv';
import { CatalogProblem } from '../../electron/catalog/catalog-problem';
import { CatalogStore } from '../../electron/catalog/catalog-store';
import type { JournalRow } from '../../electron/journal/journal-store';
import { reconcile } from '../../electron/batch/reconciliation';
import { i18n, messageFor } from '../../renderer/src/i18n/i18n';
import { chooseLanguage } from '../../renderer/src/i18n/locale';
import { problemTexts, refusalText } from '../../renderer/src/i18n/problem-words';
import { describeError } from '../../renderer/src/state/app-store';

/**
 * Issue 20: the core's refusals on the back office are said in the window's language by their ids. Real
 * refusals of the real core code (the CSV reader, the catalog store on a SQLite file, the reconciliation
 * rules): each problem has its words, every id is in the English and the Spanish catalogs, English says
 * exactly what the core says, and Spanish says something else with every value filled in.
 */

function refusal(f: () => unknown): BridgeError {
  try {
    f();
  } catch (e) {
    if (!(e instanceof CatalogProblem)) throw e;
    return {
      code: e.code,
      message: e.message,
      ...(e.problems ? { problems: e.problems } : {}),
      ...(e.problemWords ? { problemWords: e.problemWords } : {}),
      ...(e.messageId !== undefined ? { messageId: e.messageId } : {}),
      ...(e.params ? { params: e.params } : {}),
    };
  }
  throw new Error('expected a refusal');
}

const BAD_FILES: Record<string, string> = {
  rows: [
    'sku,name,price,tax_class,category,barcodes,open_price,quick_key,price_embedded_code,active',
    'A-1,,1.x,standard,,036000241458|036000241458,maybe,900,12,yes',
    ',Pear,1000000.00,,,212345928752,no,,,si',
    'A-3,Plum,1.00,standard,,036000241457,no,7,12345,yes',
    'A-3,Plum again,1.00,standard,,036000241457,no,7,12345,yes',
    'A-5,Fig,1.00,standard',
  ].join('\r\n'),
  header: 'sku,name,colour,name\r\n',
  empty: '',
};

let dir: string;
let store: CatalogStore;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'tillpoint-words-'));
  store = CatalogStore.open(join(dir, 'catalog.sqlite'));
  store.saveTaxClass({ code: 'standard', name: 'Sales tax', ratePercent: 8.25, mode: 'exclusive' }, 1);
});

afterAll(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

afterEach(() => chooseLanguage(null));

function item(over: Partial<CatalogItemInput> = {}): CatalogItemInput {
  return {
    sku: 'SKU-1',
    name: 'Paper towels',
    priceCents: 899,
    taxClassId: store.taxClasses()[0]?.id ?? 0,
    categoryId: null,
    barcodes: [],
    openPrice: false,
    active: true,
    quickKey: null,
    embeddedCode: null,
    ...over,
  };
}

/** Every refusal this test provokes, by name. */
function refusals(): Record<string, BridgeError> {
  store.saveItem(item({ sku: 'TAKEN', barcodes: ['036000241457'], quickKey: 7, embeddedCode: '12345' }), 1);
  return {
    ...Object.fromEntries(
      Object.entries(BAD_FILES).map(([n, csv]) => [`csv ${n}`, refusal(() => parseCatalogCsv(csv))]),
    ),
    'item fields': refusal(() =>
      store.saveItem(item({ sku: '', name: '', priceCents: -1, barcodes: ['036000241458', 'A|B'] }), 1),
    ),
    'item taken': refusal(() =>
      store.saveItem(
        item({ sku: 'TAKEN', barcodes: ['036000241457'], quickKey: 7, embeddedCode: '12345' }),
        1,
      ),
    ),
    'tax class': refusal(() =>
      store.saveTaxClass({ code: 'Bad Code', name: '', ratePercent: 1.23456, mode: 'exclusive' }, 1),
    ),
    'tax code taken': refusal(() =>
      store.saveTaxClass({ code: 'standard', name: 'Other', ratePercent: 1, mode: 'exclusive' }, 1),
    ),
    'tax class in use': refusal(() => store.deleteTaxClass(store.taxClasses()[0]?.id ?? 0)),
  };
}

describe('the back office’s refusals in the window’s language', () => {
  let all: Record<string, BridgeError> = {};
  beforeAll(() => {
    all = refusals();
  });

  it('each problem carries its words, and every id is in both catalogs', () => {
    expect(Object.keys(all)).toHaveLength(8);
    for (const [name, e] of Object.entries(all)) {
      const ids: MessageWords[] = [
        ...(e.messageId !== undefined ? [{ messageId: e.messageId, params: e.params ?? {} }] : []),
        ...(e.problemWords ?? []),
      ];
      expect(ids.length, name).toBeGreaterThan(0);
      expect(e.problemWords?.length ?? 0, name).toBe(e.problems?.length ?? 0);
      for (const w of ids)
        for (const lng of ['en', 'es'])
          expect(
            i18n.exists(`errors:${w.messageId}`, { lng, ...w.params }),
            `${name}: ${w.messageId} (${lng})`,
          ).toBe(true);
    }
  });

  it('in English, the catalogs say exactly what the core said', () => {
    chooseLanguage('en');
    for (const [name, e] of Object.entries(all)) {
      expect(problemTexts(e), name).toEqual(e.problems ?? []);
    }
    // The refusals' own sentences, said by their ids (all of these but a form's list of problems).
    const withId = Object.entries(all).filter(([, e]) => e.messageId !== undefined);
    expect(withId.length).toBeGreaterThanOrEqual(5);
    for (const [name, e] of withId) expect(describeError(e), name).toBe(e.message);
  });

  it('in Spanish, each is said in Spanish with its values, a CSV line’s as "Línea n:"', () => {
    chooseLanguage('es');
    const csv = all['csv rows'];
    if (!csv) throw new Error('no CSV refusal');
    expect(describeError(csv)).toBe(
      `No se importó nada: el archivo tiene ${csv.problems?.length} problemas.`,
    );
    expect(problemTexts(csv)).toContain(
      'Línea 2: Código de barras 036000241458: el dígito verificador no coincide: revise el número.',
    );
    expect(problemTexts(csv)).toContain('Línea 5: el SKU A-3 también está en la línea 4.');
    for (const [name, e] of Object.entries(all)) {
      const said = [...(e.messageId !== undefined ? [describeError(e)] : []), ...problemTexts(e)];
      const english = [...(e.messageId !== undefined ? [e.message] : []), ...(e.problems ?? [])];
      expect(said, name).toHaveLength(english.length);
      said.forEach((s, i) => {
        expect(s, name).not.toBe(english[i]);
        expect(s, name).not.toMatch(/\{\{|\}\}/);
      });
    }
    expect(refusalText(all['item taken'] ?? { code: 'invalid', message: '' })).toMatch(
      /^El SKU TAKEN ya es de Paper towels \(SKU TAKEN\)\. El código de barras 036000241457 ya está en Paper towels/,
    );
  });

  it('the reconciliation’s notes and blockers: ids in both catalogs, English notes as the core wrote them', () => {
    const row = (utn: string, state: JournalRow['state']): JournalRow =>
      ({
        utn,
        operation: 'sale',
        state,
        amountCents: 100,
        approvedCents: state === 'approved' ? 100 : 0,
        taxCents: 0,
        tipCents: 0,
      }) as JournalRow;
    const v = reconcile({
      journal: [row('a', 'declined'), row('b', 'unknown'), row('c', 'approved'), row('d', 'voided')],
      openBatch: new Map(
        ['a', 'b', 'd', 'z'].map((u) => [u, { utn: u, serviceReferenceNumber: `S-${u}`, amountCents: 100 }]),
      ),
      isOurs: () => true,
      reversals: [],
      safQueued: 2,
      now: 1,
    });
    const noted = v.rows.filter((r) => r.note !== undefined);
    expect(noted.length).toBeGreaterThanOrEqual(4);
    chooseLanguage('en');
    for (const r of noted) {
      const w = r.noteWords;
      if (!w) throw new Error(`no words for ${r.note}`);
      // The screens write the typographic apostrophe (gateway’s) where the core's log text has a straight one.
      expect(messageFor(`batch:rec.notes.${w.messageId}`, w.params ?? {})?.replace(/’/g, "'")).toBe(r.note);
    }
    expect(v.blockerWords?.map((w) => w.messageId)).toEqual([
      'batch.blockers.orphans',
      'batch.blockers.reversals',
      'batch.blockers.stored',
    ]);
    chooseLanguage('es');
    expect(
      problemTexts({
        code: 'conflict',
        message: '',
        problems: v.blockers,
        problemWords: v.blockerWords ?? [],
      }),
    ).toEqual([
      '2 transacciones aprobadas en la pasarela no están en el registro: conserve o revierta cada una.',
      '1 reversión aún no confirmada por la pasarela.',
      '2 ventas guardadas sin conexión aún no se han enviado.',
    ]);
  });
});
