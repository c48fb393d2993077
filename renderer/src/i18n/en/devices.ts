/** A device's trouble as the top bar shows it ("Printer: out of paper"). */
export const devices = {
  trouble: '{{device}}: {{problem}}',
  bar: {
    cardReader: 'Card reader',
    pinPad: 'PIN pad',
    contactless: 'Chip reader',
    signaturePad: 'Signature pad',
    receiptPrinter: 'Printer',
    scanner: 'Scanner',
    poleDisplay: 'Pole display',
  },
  /** The problems the core reports (devices' health), by their words; another is shown as it came. */
  problems: {
    'out of paper': 'out of paper',
    'cover open': 'cover open',
    offline: 'offline',
    'not connected': 'not connected',
    'not answering': 'not answering',
  },
};
