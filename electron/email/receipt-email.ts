import type { Language } from '../../common/store-locale';
import type { ReceiptLineView, ReceiptView } from '../../common/bridge/contract';

/**
 * A receipt as an email: the customer copy the printer prints (sale/receipt.ts builds both, so what the
 * receipt shows — items, times, card lines — is the same on paper and in the inbox), as a plain-text part
 * (the printer's own text) and a simple HTML part (the same lines in a table, inline styles only: mail
 * programs drop style sheets). The customer copy carries the card's last four only and its time in the
 * store's time zone (sale/receipt.ts, common/store-time.ts); this file adds neither card data nor a time
 * of its own.
 */

/**
 * `language`: what the receipt's own words are in (the store's, or the customer's choice on the customer
 * display); the email's words around it follow. Absent in a row queued before emails had languages:
 * English, as they all were.
 */
export type ReceiptEmailInput = { receipt: ReceiptView; storeName: string; language?: Language };

export type ReceiptEmail = { subject: string; text: string; html: string };

type ReceiptEmailWords = {
  subject: (store: string) => string;
  thanks: (store: string) => string;
  footer: string;
};

/**
 * The email's words around the receipt, per language (the receipt's own words are receipt-words.ts'):
 * "usted", as the store's printed receipt and screens address the customer.
 */
export const RECEIPT_EMAIL_WORDS: Readonly<Record<Language, ReceiptEmailWords>> = {
  en: {
    subject: (store) => `Your receipt from ${store}`,
    thanks: (store) => `Thank you for shopping at ${store}.`,
    footer: 'You received this email because you asked for your receipt at our counter.',
  },
  es: {
    subject: (store) => `Su recibo de ${store}`,
    thanks: (store) => `Gracias por su compra en ${store}.`,
    footer: 'Recibió este correo porque pidió su recibo en nuestro mostrador.',
  },
};

const escapes: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => escapes[c] ?? c);
}

const CELL = 'padding:1px 0;vertical-align:top;';

function htmlLine(l: ReceiptLineView): string {
  switch (l.kind) {
    case 'text': {
      const style = [
        CELL,
        `text-align:${l.align ?? 'left'};`,
        l.bold ? 'font-weight:bold;' : '',
        l.large ? 'font-size:18px;' : '',
      ].join('');
      return `<tr><td colspan="2" style="${style}">${esc(l.text)}</td></tr>`;
    }
    case 'pair': {
      const weight = l.bold ? 'font-weight:bold;' : '';
      return `<tr><td style="${CELL}${weight}">${esc(l.left)}</td><td style="${CELL}${weight}text-align:right;white-space:nowrap;">${esc(l.right)}</td></tr>`;
    }
    case 'rule':
      return `<tr><td colspan="2" style="padding:4px 0;"><hr style="border:0;border-top:1px dashed #999;margin:0;"></td></tr>`;
    case 'qr':
      // The on-screen QR is for the phone at the counter; the email is already on the phone.
      return '';
    case 'barcode':
      // The receipt number is on the TICKET line as text; a mail client cannot be trusted to draw bars.
      return '';
  }
}

export function renderReceiptEmail(input: ReceiptEmailInput): ReceiptEmail {
  const { receipt, storeName } = input;
  const language = input.language ?? 'en';
  const words = RECEIPT_EMAIL_WORDS[language];
  const subject = words.subject(storeName);
  const thanks = words.thanks(storeName);
  const text = [thanks, '', receipt.text, '', words.footer, ''].join('\n');
  const html = [
    '<!doctype html>',
    `<html lang="${language}"><head><meta charset="utf-8">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(subject)}</title></head>`,
    '<body style="margin:0;padding:16px;background:#f3f3f3;color:#111;font-family:Arial,Helvetica,sans-serif;">',
    '<div style="max-width:440px;margin:0 auto;background:#ffffff;border:1px solid #dddddd;padding:20px;">',
    `<p style="margin:0 0 16px 0;font-size:16px;">${esc(thanks)}</p>`,
    '<table role="presentation" style="width:100%;border-collapse:collapse;font-family:Menlo,Consolas,\'Courier New\',monospace;font-size:14px;">',
    ...receipt.lines.map(htmlLine).filter((l) => l.length > 0),
    '</table>',
    `<p style="margin:16px 0 0 0;color:#666;font-size:12px;">${esc(words.footer)}</p>`,
    '</div></body></html>',
  ].join('\n');
  return { subject, text, html };
}
