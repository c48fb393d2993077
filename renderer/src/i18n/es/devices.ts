import type { Messages } from '../messages';
import type { devices as en } from '../en/devices';

export const devices: Messages<typeof en> = {
  trouble: '{{device}}: {{problem}}',
  bar: {
    cardReader: 'Lector de tarjetas',
    pinPad: 'PIN pad',
    contactless: 'Lector de chip',
    signaturePad: 'Pad de firma',
    receiptPrinter: 'Impresora',
    scanner: 'Escáner',
    poleDisplay: 'Visor de cliente',
  },
  problems: {
    'out of paper': 'sin papel',
    'cover open': 'tapa abierta',
    offline: 'fuera de línea',
    'not connected': 'no conectado',
    'not answering': 'no responde',
  },
};
