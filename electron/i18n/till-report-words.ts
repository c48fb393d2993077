import type { Language } from '../../common/store-locale';
import type { TillReportView, TillState } from '../../common/bridge/contract';

/**
 * The fixed words of a till report on paper (X and Z, till-report-lines.ts) in each language the store may
 * print in. The figures' own labels are common/figure-labels.ts (the screen's, word for word). In Spanish
 * a report is a "corte" (corte X, corte Z) and a till a "caja", as Mexican and US Hispanic stores say.
 */
export type TillReportWords = {
  title: (r: Pick<TillReportView, 'kind' | 'scope' | 'zNumber' | 'tillId'>) => string;
  endOf: (title: string) => string;
  from: string;
  to: string;
  printed: string;
  closedBy: string;
  salesByTender: string;
  takenWithNoTill: string;
  cardBatch: string;
  cardBatchNote: string;
  drawer: string;
  drawerNote: string;
  /** "(2 tills)" after the counted figure. */
  tillsCounted: (n: number) => string;
  returns: string;
  returnsByTender: string;
  returnsInAll: (count: number) => string;
  discounts: string;
  noneRecorded: string;
  taxByClass: string;
  taxLine: (taxClass: string, tickets: number, taxable: string) => string;
  byEmployee: string;
  sales: string;
  cashRefunds: string;
  paidIn: string;
  paidOut: string;
  safeDrops: string;
  noSales: string;
  overShort: string;
  tills: string;
  tillLine: (tillId: number, employee: string) => string;
  opened: string;
  leftTheDrawer: string;
  countedBy: (counted: string, employee: string) => string;
  signedOffBy: string;
  notCounted: string;
  state: Readonly<Record<TillState, string>>;
};

const en: TillReportWords = {
  title: (r) =>
    r.kind === 'z'
      ? `Z report ${r.zNumber ?? ''}`.trim()
      : r.scope === 'till'
        ? `X report - till ${r.tillId ?? ''}`.trim()
        : 'X report - day so far',
  endOf: (title) => `END OF ${title}`,
  from: 'From',
  to: 'To',
  printed: 'Printed',
  closedBy: 'Closed by',
  salesByTender: 'Sales by tender',
  takenWithNoTill: 'Taken with no till open',
  cardBatch: 'Card batch',
  cardBatchNote: 'What the gateway settles. No cash.',
  drawer: 'Drawer',
  drawerNote: 'What the tills count: cash only.',
  tillsCounted: (n) => `(${n} till${n === 1 ? '' : 's'})`,
  returns: 'Returns',
  returnsByTender: 'Returns by tender',
  returnsInAll: (count) => `  Returns in all (${count})`,
  discounts: 'Discounts',
  noneRecorded: 'None recorded',
  taxByClass: 'Tax by class',
  taxLine: (taxClass, tickets, taxable) => `${taxClass} (${tickets}) on ${taxable}`,
  byEmployee: 'By employee',
  sales: 'Sales',
  cashRefunds: 'Cash refunds',
  paidIn: 'Paid in',
  paidOut: 'Paid out',
  safeDrops: 'Safe drops',
  noSales: 'No sales',
  overShort: 'Over/short',
  tills: 'Tills',
  tillLine: (tillId, employee) => `Till ${tillId} - ${employee}`,
  opened: 'Opened',
  leftTheDrawer: 'Left the drawer',
  countedBy: (counted, employee) => `${counted} by ${employee}`,
  signedOffBy: 'Signed off by',
  notCounted: 'Not counted',
  state: { open: 'open', 'handed-over': 'handed-over', counted: 'counted', closed: 'closed' },
};

const es: TillReportWords = {
  title: (r) =>
    r.kind === 'z'
      ? `Corte Z ${r.zNumber ?? ''}`.trim()
      : r.scope === 'till'
        ? `Corte X - caja ${r.tillId ?? ''}`.trim()
        : 'Corte X - el día hasta ahora',
  endOf: (title) => `FIN DEL ${title}`,
  from: 'Desde',
  to: 'Hasta',
  printed: 'Impreso',
  closedBy: 'Cerrado por',
  salesByTender: 'Ventas por forma de pago',
  takenWithNoTill: 'Recibido sin caja abierta',
  cardBatch: 'Lote de tarjetas',
  cardBatchNote: 'Lo que liquida la pasarela. Sin efectivo.',
  drawer: 'Cajón',
  drawerNote: 'Lo que cuentan las cajas: solo efectivo.',
  tillsCounted: (n) => `(${n} caja${n === 1 ? '' : 's'})`,
  returns: 'Devoluciones',
  returnsByTender: 'Devoluciones por forma de pago',
  returnsInAll: (count) => `  Devoluciones en total (${count})`,
  discounts: 'Descuentos',
  noneRecorded: 'Ninguno registrado',
  taxByClass: 'Impuestos por clase',
  taxLine: (taxClass, tickets, taxable) => `${taxClass} (${tickets}) sobre ${taxable}`,
  byEmployee: 'Por empleado',
  sales: 'Ventas',
  cashRefunds: 'Devoluciones en efectivo',
  paidIn: 'Entradas de efectivo',
  paidOut: 'Salidas de efectivo',
  safeDrops: 'Depósitos a caja fuerte',
  noSales: 'Aperturas sin venta',
  overShort: 'Sobrante/faltante',
  tills: 'Cajas',
  tillLine: (tillId, employee) => `Caja ${tillId} - ${employee}`,
  opened: 'Abierta',
  // Beside a date line "27/11/2026 11:54 a.m. GMT-5", in 42 columns.
  leftTheDrawer: 'Salida',
  countedBy: (counted, employee) => `${counted} por ${employee}`,
  signedOffBy: 'Visto bueno de',
  notCounted: 'Sin contar',
  state: {
    open: 'en el cajón',
    'handed-over': 'entregada',
    counted: 'contada',
    closed: 'cerrada',
  },
};

export const TILL_REPORT_WORDS: Readonly<Record<Language, TillReportWords>> = { en, es };
