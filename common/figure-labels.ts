import type { Language } from './store-locale';
import { FIGURE_LABELS } from './money-figures';

/**
 * The money figures' labels in each language (one wording per language, so the till report on screen and
 * on paper, the batch screen and Reports read alike). English is FIGURE_LABELS itself; a label missing
 * in a language fails to compile.
 */
export type FigureKey = keyof typeof FIGURE_LABELS;

const es: Readonly<Record<FigureKey, string>> = {
  // Short enough for a receipt line with its count and amount (42 columns).
  cardSales: 'Ventas con tarjeta (cargos)',
  cardRefunds: 'Devoluciones a tarjetas',
  cardNet: 'Neto de tarjetas (va al banco)',
  cardCashBack: 'Retiro de efectivo con débito en ventas con tarjeta',
  cardTips: 'Propinas en ventas con tarjeta',
  storedOffline: 'Guardadas sin conexión (aún no en la pasarela)',
  cashTaken: 'Efectivo recibido',
  cashBackPaid: 'Retiros de efectivo entregados',
  expectedCash: 'Efectivo de ventas (recibido − retiros)',
  checks: 'Cheques recibidos',
  float: 'Fondo de caja',
  cashRefunds: 'Devoluciones en efectivo',
  paidIn: 'Entradas de efectivo',
  paidOut: 'Salidas de efectivo',
  safeDrops: 'Depósitos a caja fuerte',
  noSales: 'Aperturas sin venta',
  expectedInDrawer: 'Esperado en el cajón',
  counted: 'Contado',
  overShort: 'Sobrante (+) / faltante (−)',
  allSales: 'Ventas, todas las formas de pago',
};

export const FIGURE_LABELS_IN: Readonly<Record<Language, Readonly<Record<FigureKey, string>>>> = {
  en: FIGURE_LABELS,
  es,
};

/**
 * The names a figure line is keyed by (money-figures.ts `tenderName`, `tenderLines`), in each language. A
 * key that is not a tender's name (a card type such as Visa, a discount's or a tax class's name) is the
 * store's own word and is shown as it is.
 */
const TENDER_NAMES_EN = {
  Credit: 'Credit',
  'Credit (pre-authorized)': 'Credit (pre-authorized)',
  'Card on file': 'Card on file',
  Debit: 'Debit',
  'EBT food': 'EBT food',
  'EBT cash': 'EBT cash',
  'Gift card': 'Gift card',
  'Gift card load': 'Gift card load',
  Cash: 'Cash',
  Check: 'Check',
  Other: 'Other',
};
export type TenderNameKey = keyof typeof TENDER_NAMES_EN;

export const TENDER_NAMES_IN: Readonly<Record<Language, Readonly<Record<TenderNameKey, string>>>> = {
  en: TENDER_NAMES_EN,
  es: {
    Credit: 'Crédito',
    'Credit (pre-authorized)': 'Crédito (preautorizado)',
    'Card on file': 'Tarjeta guardada',
    Debit: 'Débito',
    'EBT food': 'EBT alimentos',
    'EBT cash': 'EBT efectivo',
    'Gift card': 'Tarjeta de regalo',
    'Gift card load': 'Recarga de tarjeta de regalo',
    Cash: 'Efectivo',
    Check: 'Cheque',
    Other: 'Otra',
  },
};

function isTenderName(key: string): key is TenderNameKey {
  return Object.hasOwn(TENDER_NAMES_EN, key);
}

/**
 * A return whose money went back by voiding the sale's card payment is counted under its tender's name
 * with this suffix (journal/return-store.ts: "Credit (voided)"), so a void and a refund to the same card
 * stay two lines of the returns' figures.
 */
const VOIDED_SUFFIX = ' (voided)';

/** "Credit (voided)" in each language: a noun, not an adjective, so it agrees with every tender's name. */
export const VOIDED_TENDER_IN: Readonly<Record<Language, string>> = {
  en: '{{tender}} (voided)',
  es: '{{tender}} (anulación)',
};

/** The tender a voided line names ("Credit" of "Credit (voided)"); undefined for any other line. */
export function voidedTenderOf(key: string): string | undefined {
  return key.endsWith(VOIDED_SUFFIX) ? key.slice(0, -VOIDED_SUFFIX.length) : undefined;
}

export function figureLineLabel(key: string, language: Language): string {
  const voided = voidedTenderOf(key);
  if (voided !== undefined)
    return VOIDED_TENDER_IN[language].replace('{{tender}}', figureLineLabel(voided, language));
  return isTenderName(key) ? TENDER_NAMES_IN[language][key] : key;
}
