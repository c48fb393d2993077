import type { Language } from '../../common/store-locale';
import type { CardEntry, JournalState, TenderKind, TenderStatus } from '../../common/bridge/contract';

/**
 * The fixed words of a printed receipt (a sale's, a refund's, a void's) in each language the store may
 * print in (the store's locale, common/store-locale.ts). Uppercase, as receipts print them; the printer's
 * code page folds what it cannot print (paper-text.ts). Spanish is what a US or Mexican store's receipt
 * says; a word missing in a language fails to compile.
 */
export type ReceiptWords = {
  laneLine: (mid: number, laneId: string) => string;
  ticket: (ticketId: string) => string;
  subtotal: string;
  giftCardLoad: string;
  tax: string;
  tip: string;
  total: string;
  tender: Readonly<Record<TenderKind, string>>;
  tenderStatus: Readonly<Record<TenderStatus, string>>;
  /** A tender's line: "CREDIT APPROVED". */
  tenderLine: (tender: string, status: string) => string;
  entry: Readonly<Record<CardEntry, string>>;
  entryLine: (entry: string) => string;
  auth: string;
  ref: string;
  cashBack: string;
  cardCharged: string;
  change: string;
  balance: string;
  approvedOffline: string;
  cardholderSignature: string;
  /** The cardholder's agreement under the signature line (the card brands' rules for a signed receipt). */
  cardholderAgreement: string;
  signatureCaptured: string;
  balanceDue: string;
  customerCopy: string;
  merchantCopy: string;
  refund: { title: string; done: string };
  void: { title: string; done: string };
  /** Another operation's receipt (none today): its name, and the line of a finished one. */
  otherDone: string;
  journalState: Readonly<Record<JournalState, string>>;
  /** A refund or void that did not go through: "REFUND DECLINED". */
  notDone: (title: string, state: string) => string;
  originalRef: string;
  originalAmount: string;
  refundedInAll: string;
  // A ticket of lines (itemized-receipt.ts).
  items: string;
  discount: string;
  ticketDiscount: string;
  /** "TAX 8.25% GENERAL", "INCL. TAX 20% …": the tax class's line. */
  classTax: (inclusive: boolean) => string;
  /**
   * The name an open item gets when the cashier types none: the line's own name (not a heading, so not
   * uppercase), given in the store's language when it is rung, and shown and printed as it was given.
   */
  openItemName: string;
};

const en: ReceiptWords = {
  laneLine: (mid, laneId) => `MID ${mid}  LANE ${laneId}`,
  ticket: (id) => `TICKET ${id}`,
  subtotal: 'SUBTOTAL',
  giftCardLoad: 'GIFT CARD LOAD',
  tax: 'TAX',
  tip: 'TIP',
  total: 'TOTAL',
  tender: {
    credit: 'CREDIT',
    debit: 'DEBIT',
    ebt: 'EBT',
    gift: 'GIFT CARD',
    check: 'CHECK',
    token: 'CARD ON FILE',
    cash: 'CASH',
    preauth: 'PRE-AUTH',
  },
  tenderStatus: {
    'in-progress': 'IN-PROGRESS',
    approved: 'APPROVED',
    partial: 'PARTIAL',
    declined: 'DECLINED',
    cancelled: 'CANCELLED',
    unknown: 'UNKNOWN',
    reversed: 'REVERSED',
    'offline-refused': 'OFFLINE-REFUSED',
    stored: 'STORED',
    voided: 'VOIDED',
  },
  tenderLine: (tender, status) => `${tender} ${status}`,
  entry: {
    swipe: 'SWIPED',
    chip: 'CHIP',
    contactless: 'CONTACTLESS',
    keyed: 'KEYED',
    present: 'CARD PRESENT',
  },
  entryLine: (entry) => `ENTRY ${entry}`,
  auth: 'AUTH',
  ref: 'REF',
  cashBack: 'CASH BACK',
  cardCharged: 'CARD CHARGED',
  change: 'CHANGE',
  balance: 'BALANCE',
  approvedOffline: 'APPROVED OFFLINE - SUBJECT TO AUTHORIZATION',
  cardholderSignature: 'CARDHOLDER SIGNATURE',
  cardholderAgreement: 'I AGREE TO PAY THE ABOVE TOTAL ACCORDING TO MY CARD ISSUER AGREEMENT',
  signatureCaptured: 'SIGNATURE CAPTURED ELECTRONICALLY',
  balanceDue: 'BALANCE DUE',
  customerCopy: 'CUSTOMER COPY',
  merchantCopy: 'MERCHANT COPY',
  refund: { title: 'REFUND', done: 'REFUNDED' },
  void: { title: 'VOID', done: 'VOIDED' },
  otherDone: 'DONE',
  journalState: {
    sending: 'SENDING',
    approved: 'APPROVED',
    partial: 'PARTIAL',
    declined: 'DECLINED',
    unknown: 'UNKNOWN',
    'awaiting-card': 'AWAITING-CARD',
    reversing: 'REVERSING',
    reversed: 'REVERSED',
    voided: 'VOIDED',
    refunded: 'REFUNDED',
    stored: 'STORED',
    failed: 'FAILED',
  },
  notDone: (title, state) => `${title} ${state}`,
  originalRef: 'ORIGINAL REF',
  originalAmount: 'ORIGINAL AMOUNT',
  refundedInAll: 'REFUNDED IN ALL',
  items: 'ITEMS',
  discount: 'DISCOUNT',
  ticketDiscount: 'TICKET DISCOUNT',
  classTax: (inclusive) => (inclusive ? 'INCL. TAX' : 'TAX'),
  openItemName: 'Open item',
};

const es: ReceiptWords = {
  // A lane is a "terminal" in Spanish: "caja" is a till (one cashier's drawer, "abrir caja", "corte de
  // caja"), and the two must never read alike.
  laneLine: (mid, laneId) => `MID ${mid}  TERMINAL ${laneId}`,
  ticket: (id) => `TICKET ${id}`,
  subtotal: 'SUBTOTAL',
  giftCardLoad: 'RECARGA TARJETA DE REGALO',
  tax: 'IMPUESTO',
  tip: 'PROPINA',
  total: 'TOTAL',
  tender: {
    credit: 'CRÉDITO',
    debit: 'DÉBITO',
    ebt: 'EBT',
    gift: 'TARJETA DE REGALO',
    check: 'CHEQUE',
    token: 'TARJETA GUARDADA',
    cash: 'EFECTIVO',
    preauth: 'PREAUTORIZACIÓN',
  },
  // Said of the payment ("pago"), so one form fits every tender: "CRÉDITO: APROBADO".
  tenderStatus: {
    'in-progress': 'EN CURSO',
    approved: 'APROBADO',
    partial: 'APROBADO EN PARTE',
    declined: 'RECHAZADO',
    cancelled: 'CANCELADO',
    unknown: 'SIN RESPUESTA',
    reversed: 'REVERTIDO',
    'offline-refused': 'RECHAZADO SIN CONEXIÓN',
    stored: 'GUARDADO SIN CONEXIÓN',
    voided: 'ANULADO',
  },
  tenderLine: (tender, status) => `${tender}: ${status}`,
  entry: {
    swipe: 'BANDA',
    chip: 'CHIP',
    contactless: 'SIN CONTACTO',
    keyed: 'DIGITADA',
    present: 'TARJETA PRESENTE',
  },
  entryLine: (entry) => `LECTURA ${entry}`,
  auth: 'AUT.',
  ref: 'REF.',
  cashBack: 'RETIRO DE EFECTIVO',
  cardCharged: 'CARGO A LA TARJETA',
  change: 'CAMBIO',
  balance: 'SALDO',
  approvedOffline: 'SIN CONEXIÓN - SUJETO A AUTORIZACIÓN',
  cardholderSignature: 'FIRMA DEL TARJETAHABIENTE',
  cardholderAgreement: 'ACEPTO PAGAR EL TOTAL ANTERIOR SEGÚN EL CONTRATO CON EL EMISOR DE MI TARJETA',
  signatureCaptured: 'FIRMA CAPTURADA ELECTRÓNICAMENTE',
  balanceDue: 'SALDO PENDIENTE',
  customerCopy: 'COPIA DEL CLIENTE',
  merchantCopy: 'COPIA DEL COMERCIO',
  refund: { title: 'DEVOLUCIÓN', done: 'DEVUELTO' },
  void: { title: 'ANULACIÓN', done: 'ANULADO' },
  otherDone: 'HECHO',
  journalState: {
    sending: 'ENVIANDO',
    approved: 'APROBADO',
    partial: 'APROBADO EN PARTE',
    declined: 'RECHAZADO',
    unknown: 'SIN RESPUESTA',
    'awaiting-card': 'ESPERANDO LA TARJETA',
    reversing: 'REVIRTIENDO',
    reversed: 'REVERTIDO',
    voided: 'ANULADO',
    refunded: 'DEVUELTO',
    stored: 'GUARDADO SIN CONEXIÓN',
    failed: 'FALLIDO',
  },
  notDone: (title, state) => `${title}: ${state}`,
  originalRef: 'REF. ORIGINAL',
  originalAmount: 'IMPORTE ORIGINAL',
  refundedInAll: 'DEVUELTO EN TOTAL',
  items: 'ARTÍCULOS',
  discount: 'DESCUENTO',
  ticketDiscount: 'DESCUENTO DEL TICKET',
  classTax: (inclusive) => (inclusive ? 'IMP. INCLUIDO' : 'IMPUESTO'),
  openItemName: 'Artículo abierto',
};

export const RECEIPT_WORDS: Readonly<Record<Language, ReceiptWords>> = { en, es };
