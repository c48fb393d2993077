import { NgaReaderDriver } from '../drivers/nga-reader';
import { PinPadDriver } from '../drivers/pin-pad';
import { PoleDisplayDriver } from '../drivers/pole-display';
import { ReceiptPrinterDriver } from '../drivers/receipt-printer';
import type {
  BarcodeScan,
  BarcodeScanner,
  CardReader,
  CardReaderEvent,
  ChipReader,
  ContactlessReader,
  DeviceHealth,
  DeviceRole,
  PinPad,
  PoleDisplay,
  ReceiptPrinter,
  RoleApi,
  SignaturePad,
  SignaturePoint,
} from '../drivers/roles';
import { SignaturePadDriver } from '../drivers/signature-pad';
import type { Listeners } from '../drivers/listeners';
import type { Driver } from './driver-factory';

/**
 * The role facades: one stable object per role (docs/decisions.md#devices) over whatever driver is attached
 * right now, so the core subscribes once and a reconnect changes nothing it holds. A role whose device is
 * not connected answers as the role's interface says (a failed PIN, an offline printer), or throws for an
 * action that has no such answer.
 */
export function createRoleFacades(o: {
  driverOf: (role: DeviceRole) => Driver | undefined;
  healthOf: (role: DeviceRole) => DeviceHealth;
  cards: Listeners<CardReaderEvent>;
  strokes: Listeners<SignaturePoint[]>;
  scans: Listeners<BarcodeScan>;
}): RoleApi {
  const notConnected = (role: DeviceRole): string => `${role} not connected`;
  const pinPadDriver = (): PinPadDriver | undefined => {
    const d = o.driverOf('pinPad');
    return d instanceof PinPadDriver ? d : undefined;
  };
  // The contactless reader and the chip reader are one NGA reader on one link (the `contactless` role).
  const ngaReader = (): NgaReaderDriver | undefined => {
    const d = o.driverOf('contactless');
    return d instanceof NgaReaderDriver ? d : undefined;
  };
  const signaturePadDriver = (): SignaturePadDriver | undefined => {
    const d = o.driverOf('signaturePad');
    return d instanceof SignaturePadDriver ? d : undefined;
  };
  const printer = (): ReceiptPrinterDriver => {
    const d = o.driverOf('receiptPrinter');
    if (!(d instanceof ReceiptPrinterDriver)) throw new Error(notConnected('receiptPrinter'));
    return d;
  };

  const cardReader: CardReader = {
    role: 'cardReader',
    onCard: (l) => o.cards.add(l),
    health: () => o.healthOf('cardReader'),
  };
  const pinPad: PinPad = {
    role: 'pinPad',
    display: async (text) => {
      const d = pinPadDriver();
      if (!d) throw new Error(notConnected('pinPad'));
      await d.display(text);
    },
    requestPin: async (request) => {
      const d = pinPadDriver();
      if (!d) return { kind: 'failed', reason: 'PIN pad not connected' };
      return d.requestPin(request);
    },
    cancel: async () => {
      await pinPadDriver()?.cancel();
    },
    health: () => o.healthOf('pinPad'),
  };
  const contactless: ContactlessReader = {
    role: 'contactless',
    ping: async () => {
      const d = ngaReader();
      return d ? d.contactless.ping() : false;
    },
    activateTransaction: async (request) => {
      const d = ngaReader();
      if (!d) return { kind: 'failed', reason: 'contactless reader not connected' };
      return d.contactless.activateTransaction(request);
    },
    cancel: async () => {
      await ngaReader()?.contactless.cancel();
    },
    beep: async () => {
      const d = ngaReader();
      if (!d) throw new Error(notConnected('contactless'));
      await d.contactless.beep();
    },
    health: () => o.healthOf('contactless'),
  };
  const chipNotConnected = {
    kind: 'failed',
    code: 'not-connected',
    reason: 'chip reader not connected',
  } as const;
  const chipReader: ChipReader = {
    role: 'chipReader',
    start: async (request) => {
      const d = ngaReader();
      return d ? d.chip.start(request) : chipNotConnected;
    },
    complete: async (response) => {
      const d = ngaReader();
      return d ? d.chip.complete(response) : chipNotConnected;
    },
    cancel: async () => {
      await ngaReader()?.chip.cancel();
    },
    inTransaction: () => ngaReader()?.chip.inTransaction() ?? false,
    health: () => o.healthOf('contactless'),
  };
  const signaturePad: SignaturePad = {
    role: 'signaturePad',
    startCapture: () => {
      signaturePadDriver()?.startCapture();
    },
    onStroke: (l) => o.strokes.add(l),
    finishCapture: async () => signaturePadDriver()?.finishCapture(),
    health: () => o.healthOf('signaturePad'),
  };
  const receiptPrinter: ReceiptPrinter = {
    role: 'receiptPrinter',
    print: async (receipt) => {
      const d = o.driverOf('receiptPrinter');
      if (!(d instanceof ReceiptPrinterDriver))
        return { ok: false, reason: 'offline', message: 'printer not connected' };
      return d.print(receipt);
    },
    cut: async () => printer().cut(),
    kickDrawer: async () => printer().kickDrawer(),
    status: async () => printer().status(),
    health: () => o.healthOf('receiptPrinter'),
  };
  const scanner: BarcodeScanner = {
    role: 'scanner',
    onScan: (l) => o.scans.add(l),
    health: () => o.healthOf('scanner'),
  };
  const poleDisplayDriver = (): PoleDisplayDriver => {
    const d = o.driverOf('poleDisplay');
    if (!(d instanceof PoleDisplayDriver)) throw new Error(notConnected('poleDisplay'));
    return d;
  };
  // A sale goes on without its pole display: the calls throw "not connected" and the core carries on.
  const poleDisplay: PoleDisplay = {
    role: 'poleDisplay',
    showItem: async (item, format, second) => poleDisplayDriver().showItem(item, format, second),
    showTotal: async (total, format, second) => poleDisplayDriver().showTotal(total, format, second),
    showMessage: async (first, second) => poleDisplayDriver().showMessage(first, second),
    clear: async () => poleDisplayDriver().clear(),
    lines: () => {
      const d = o.driverOf('poleDisplay');
      return d instanceof PoleDisplayDriver ? d.lines() : undefined;
    },
    health: () => o.healthOf('poleDisplay'),
  };
  return { cardReader, pinPad, contactless, chipReader, signaturePad, receiptPrinter, scanner, poleDisplay };
}
