import { useTranslation } from 'react-i18next';
import type { ReceiptView } from '../../../../common/bridge/contract';
import { Dialog } from '../../ui/Dialog';
import { Code128 } from '../../ui/Code128';
import { QrCode } from '../../ui/QrCode';
import { useSale, useSaleStore } from '../../state/context';
import { EmailReceiptForm } from './EmailReceiptForm';

/** A receipt as the printer would lay it out, for the customer to read or scan. */
export function ReceiptDocument({ receipt }: { receipt: ReceiptView }) {
  const { t } = useTranslation('sale');
  return (
    <div className="receipt" aria-label={t('receipt.document')}>
      {receipt.lines.map((line, i) => {
        switch (line.kind) {
          case 'text':
            return (
              <div
                key={i}
                style={{
                  textAlign: line.align ?? 'left',
                  fontWeight: line.bold ? 700 : 400,
                  fontSize: line.large ? '1.2em' : undefined,
                }}
              >
                {line.text}
              </div>
            );
          case 'pair':
            return (
              <div key={i} className="pair" style={{ fontWeight: line.bold ? 700 : 400 }}>
                <span>{line.left}</span>
                <span>{line.right}</span>
              </div>
            );
          case 'rule':
            return <hr key={i} />;
          case 'qr':
            return null;
          case 'barcode':
            // The receipt number as the printer prints it: a scanner reads it off the screen too.
            return <Code128 key={i} data={line.data} label={t('receipt.barcode', { number: line.data })} />;
        }
      })}
    </div>
  );
}

/** The shown receipt: QR for the customer's phone and an email option. */
export function ReceiptDialog() {
  const { t } = useTranslation('sale');
  const receipt = useSale((s) => s.receipt);
  const sale = useSaleStore();
  if (!receipt) return null;
  return (
    <Dialog
      title={receipt.copy === 'merchant' ? t('receipt.merchantCopy') : t('receipt.customerCopy')}
      onClose={() => sale.getState().hideReceipt()}
      initialFocus="receipt-close"
      wide
    >
      <div className="row" style={{ alignItems: 'flex-start' }}>
        <ReceiptDocument receipt={receipt} />
        <div className="stack receipt-side">
          <QrCode data={receipt.qrData} label={t('receipt.qr')} />
          <p className="hint">{t('receipt.scan')}</p>
          {receipt.copy === 'customer' ? <EmailReceiptForm receipt={receipt} /> : null}
        </div>
      </div>
      <div className="row">
        <button
          id="receipt-close"
          type="button"
          className="btn"
          onClick={() => sale.getState().hideReceipt()}
        >
          {t('receipt.close')}
        </button>
      </div>
    </Dialog>
  );
}

export function ReceiptActions() {
  const { t } = useTranslation('sale');
  const sale = useSaleStore();
  const note = useSale((s) => s.receiptNote);
  return (
    <section aria-labelledby="receipt-title" className="card">
      <h2 id="receipt-title">{t('receipt.title')}</h2>
      <p role="status" data-testid="receipt-note">
        {note ?? ''}
      </p>
      <div className="row">
        <button
          type="button"
          className="btn"
          onClick={() => void sale.getState().printReceipt()}
          aria-keyshortcuts="P"
        >
          {t('receipt.print')} <kbd aria-hidden="true">P</kbd>
        </button>
        <button
          type="button"
          className="btn"
          onClick={() => void sale.getState().showReceipt()}
          aria-keyshortcuts="R"
        >
          {t('receipt.show')} <kbd aria-hidden="true">R</kbd>
        </button>
        <button
          type="button"
          className="btn btn-primary"
          onClick={() => sale.getState().newSale()}
          aria-keyshortcuts="N"
          data-autofocus
        >
          {t('receipt.newSale')} <kbd aria-hidden="true">N</kbd>
        </button>
      </div>
    </section>
  );
}
