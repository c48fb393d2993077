import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceStatusView } from '../../common/bridge/contract';
import { en } from '../../renderer/src/i18n/en';
import { es } from '../../renderer/src/i18n/es';
import { i18n } from '../../renderer/src/i18n/i18n';
import {
  chooseLanguage,
  displayFormat,
  localeStore,
  rememberLanguageIn,
  setStoreLocale,
  type LanguageMemory,
} from '../../renderer/src/i18n/locale';
import { formatCents, formatDateTime } from '../../renderer/src/format/money';
import { deviceTrouble } from '../../renderer/src/format/devices';
import { describeError } from '../../renderer/src/state/app-store';
import { overShortWords, tillName } from '../../renderer/src/screens/till/till-words';
import { followSale, chooseCustomerLanguage } from '../../renderer/src/screens/customer/customer-language';

/**
 * The screens' languages (renderer/src/i18n): the Spanish catalogs say everything the English ones say,
 * with the same placeholders; a window speaks the store's language until someone at it chooses another;
 * money and times follow the window's language and the store's locale and currency; the core's refusals
 * are said in the window's language by their messageId.
 */

type Tree = { [key: string]: string | Tree };
function messages(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(tree))
    if (typeof v === 'string') out.set(`${prefix}${k}`, v);
    else for (const [kk, vv] of messages(v, `${prefix}${k}.`)) out.set(kk, vv);
  return out;
}
const placeholders = (text: string) =>
  [...new Set([...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]))].sort();

afterEach(() => {
  chooseLanguage(null);
  setStoreLocale({ locale: 'en-US', currency: 'USD' });
});

describe('the catalogs', () => {
  it('Spanish has every English message, no other, each with the same placeholders, none left in English', () => {
    const english = messages(en);
    const spanish = messages(es);
    expect(english.size).toBeGreaterThan(300);
    expect([...spanish.keys()].sort()).toEqual([...english.keys()].sort());
    const untranslated: string[] = [];
    for (const [key, text] of english) {
      const said = spanish.get(key) ?? '';
      expect(placeholders(said), key).toEqual(placeholders(text));
      // Words that are the same in both (brand, "Total", "PIN", codes, names of the languages) aside.
      const words = text.replace(/\{\{\w+\}\}/g, '');
      if (said === text && /[a-z]{4,}/.test(words) && !SAME_IN_BOTH.has(key)) untranslated.push(key);
    }
    expect(untranslated).toEqual([]);
    // The list of exceptions is itself exact: each is the same in both.
    for (const key of SAME_IN_BOTH) expect(spanish.get(key), key).toBe(english.get(key));
  });
});

/** Messages Spanish writes exactly as English does, each for a reason. */
const SAME_IN_BOTH = new Set([
  'common.language.switchTo_en', // each language is named in its own words
  'common.language.switchTo_es',
  'common.language.switchLabel_en', // said to someone who reads English
  'common.language.switchLabel_es',
  'common.language.short_en',
  'common.language.short_es',
  'app.brand',
  'reports.columns.total', // "Total" in both
  'audit.roles.system', // the lane: "Terminal" in both (app.lane says so too)
  'settings.locale.locales.en-US',
  'settings.locale.locales.es-US',
  'settings.locale.locales.es-MX',
  'settings.business.threeDSecure',
  'customer.subtotal',
  'returns.find.totalColumn', // "Total" is Spanish too
  'customer.total',
  'customer.totalAmount',
  'sale.totals.subtotal',
  'sale.totals.total',
  'devices.bar.pinPad', // "PIN pad" is what Spanish-speaking cashiers call it
  'devices.trouble',
  'tech.devices.states.error', // a device's state: "error" in Spanish too
  'tech.devices.recorder.columns.bytes', // the unit
  'tech.diagnostics.terminal', // a lane is a "terminal" (es/app.ts)
]);

describe('a window’s language', () => {
  it('is the store’s until someone chooses one; the choice is remembered; choosing none follows the store again', () => {
    const kept: (string | null)[] = [];
    const memory: LanguageMemory = { get: () => null, set: (l) => kept.push(l) };
    rememberLanguageIn(memory);
    expect(localeStore.getState().language).toBe('en');
    setStoreLocale({ locale: 'es-MX', currency: 'USD' });
    expect(localeStore.getState().language).toBe('es');
    expect(i18n.t('app:noTill')).toBe('Sin caja abierta');
    chooseLanguage('en');
    expect(kept).toEqual(['en']);
    expect(i18n.t('app:noTill')).toBe('No till open');
    chooseLanguage(null);
    expect(localeStore.getState().language).toBe('es');
    rememberLanguageIn(undefined);
  });

  it('a window opens in the language remembered there', () => {
    rememberLanguageIn({ get: () => 'es', set: () => undefined });
    expect(localeStore.getState().language).toBe('es');
    expect(i18n.t('signin:title')).toBe('Iniciar sesión');
    rememberLanguageIn({ get: () => 'klingon', set: () => undefined });
    expect(localeStore.getState().language).toBe('en');
    rememberLanguageIn(undefined);
  });
});

describe('money and times on screen', () => {
  const at = Date.UTC(2026, 10, 22, 15, 5);
  it('in the window’s language and the store’s locale and currency', () => {
    expect(formatCents(123_450)).toBe('$1,234.50');
    setStoreLocale({ locale: 'es-MX', currency: 'USD' });
    expect(formatCents(123_450)).toBe('$1,234.50');
    expect(formatDateTime(at, 'America/New_York')).toBe('22 nov, 10:05 a.m.');
    // An English window in that store writes English, in the store's currency.
    chooseLanguage('en');
    expect(displayFormat()).toEqual({ locale: 'en-US', currency: 'USD' });
    expect(formatCents(123_450)).toBe('$1,234.50');
    expect(formatDateTime(at, 'America/New_York')).toBe('Nov 22, 10:05 AM');
  });

  it('the till words and device trouble follow the language', () => {
    chooseLanguage('es');
    expect(overShortWords(700)).toBe('Sobra $7.00');
    expect(overShortWords(-125)).toBe('Falta $1.25');
    expect(overShortWords(0)).toBe('Cuadra');
    expect(tillName({ tillId: 2, employee: 'Ana' })).toBe('Caja 2 (Ana)');
    const device = (role: DeviceStatusView['role'], problem: string): DeviceStatusView => ({
      role,
      kind: 'simulated',
      attachment: 'sim',
      state: 'connected',
      attempts: 0,
      problem,
    });
    const trouble = deviceTrouble([
      device('receiptPrinter', 'out of paper'),
      device('pinPad', 'some new trouble'),
    ]);
    expect(trouble.map((t) => t.text)).toEqual(['Impresora: sin papel', 'PIN pad: some new trouble']);
  });
});

describe('the core’s refusals in the window’s language', () => {
  it('by messageId, with its values (an amount in cents written as money); else as the core said it', () => {
    chooseLanguage('es');
    expect(
      describeError({ code: 'unauthorized', message: 'Wrong PIN.', messageId: 'session.wrongPin' }),
    ).toBe('PIN incorrecto.');
    expect(
      describeError({
        code: 'invalid',
        message: 'At most 18.40 can be refunded on that sale.',
        messageId: 'till.refundAtMost',
        params: { amountCents: 1840 },
      }),
    ).toBe('En esa venta se pueden devolver como máximo $18.40.');
    expect(
      describeError({
        code: 'conflict',
        message: 'The day cannot close yet: …',
        messageId: 'till.dayNotClosed',
        params: { count: 2, tills: '1, 2' },
      }),
    ).toBe(
      'Todavía no se puede cerrar el día: las cajas 1, 2 no están cerradas (cuéntelas y deles el visto bueno).',
    );
    // An id this window does not know, or none: the core's words.
    expect(
      describeError({ code: 'conflict', message: 'Something new.', messageId: 'till.somethingNew' }),
    ).toBe('Something new.');
    chooseLanguage('en');
    expect(
      describeError({ code: 'unauthorized', message: 'Wrong PIN.', messageId: 'session.wrongPin' }),
    ).toBe('Wrong PIN.');
  });
});

describe('the customer’s language lasts for their sale', () => {
  it('chosen on the welcome, it goes with the next sale; the sale after starts in the store’s language', () => {
    followSale(null);
    chooseCustomerLanguage('es', null);
    followSale('T-1');
    expect(localeStore.getState().language).toBe('es');
    followSale('T-1');
    expect(localeStore.getState().language).toBe('es');
    followSale(null); // back to the welcome: the sale is over
    expect(localeStore.getState().language).toBe('en');
  });

  it('chosen during a sale, it ends with that sale even when the next one starts at once', () => {
    followSale('T-2');
    chooseCustomerLanguage('es', 'T-2');
    followSale('T-2');
    expect(localeStore.getState().language).toBe('es');
    followSale('T-3');
    expect(localeStore.getState().language).toBe('en');
  });
});
