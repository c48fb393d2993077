import type { DeviceRoleName, DeviceStatusView } from '../../../common/bridge/contract';
import { i18n, messageFor } from '../i18n/i18n';

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

/**
 * "Printer: out of paper", "PIN pad: not connected" for every device that cannot do its job, in the
 * window's language (the top bar's words, short enough for a glance; a problem the catalog does not know
 * is shown as the core said it).
 */
export function deviceTrouble(
  devices: readonly DeviceStatusView[],
): { role: DeviceRoleName; text: string }[] {
  return devices
    .filter((d) => d.problem !== undefined)
    .map((d) => {
      const problem = d.problem ?? '';
      return {
        role: d.role,
        text: i18n.t('devices:trouble', {
          device: i18n.t(`devices:bar.${d.role}`),
          problem: messageFor(`devices:problems.${problem}`) ?? problem,
        }),
      };
    });
}

/** A problem as the first words of a table cell: "Out of paper". */
export function problemWords(problem: string): string {
  return problem.charAt(0).toUpperCase() + problem.slice(1);
}
