import type { DeviceRoleName, DeviceStatusView } from '../../../electron/bridge/contract';

/** Each device role in the tech's words (the Devices screen, the simulator's cables). */
export const roleWords: Record<DeviceRoleName, string> = {
  cardReader: 'Card reader',
  pinPad: 'PIN pad',
  contactless: 'Chip / contactless reader',
  signaturePad: 'Signature pad',
  receiptPrinter: 'Receipt printer',
  scanner: 'Barcode scanner',
  poleDisplay: 'Pole display',
};

/** The same, short enough for the status bar a cashier glances at. */
const barWords: Record<DeviceRoleName, string> = {
  cardReader: 'Card reader',
  pinPad: 'PIN pad',
  contactless: 'Chip reader',
  signaturePad: 'Signature pad',
  receiptPrinter: 'Printer',
  scanner: 'Scanner',
  poleDisplay: 'Pole display',
};

/** "Printer: out of paper", "PIN pad: not connected" for every device that cannot do its job. */
export function deviceTrouble(
  devices: readonly DeviceStatusView[],
): { role: DeviceRoleName; text: string }[] {
  return devices
    .filter((d) => d.problem !== undefined)
    .map((d) => ({ role: d.role, text: `${barWords[d.role]}: ${d.problem ?? ''}` }));
}

/** A problem as the first words of a table cell: "Out of paper". */
export function problemWords(problem: string): string {
  return problem.charAt(0).toUpperCase() + problem.slice(1);
}
