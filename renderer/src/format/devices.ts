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

/** A problem as the first words of a table cell: "Out of paper", "Sin papel" (in the window's language). */
export function problemWords(problem: string): string {
  const words = knownWords('devices:problems', problem) ?? problem;
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/**
 * A device test's answer (native/devices/device-tests.ts) in the window's language: the core's own fixed
 * words by the catalog, the printer's status and the pole display's echo rebuilt from their parts. Anything
 * else is what a device said of itself (its error text, a card's brand and masked number): data, as it came.
 */
export function testDetailWords(detail: string): string {
  const fixed = knownWords('tech:devices.tests.details', detail);
  if (fixed !== undefined) return fixed;
  const printer = /^paper (ok|near-end|out), cover (open|closed), (online|offline)$/.exec(detail);
  if (printer)
    return i18n.t('tech:devices.tests.printer', {
      paper: i18n.t(`tech:devices.tests.paper.${printer[1] as 'ok' | 'near-end' | 'out'}`),
      cover: i18n.t(`tech:devices.tests.cover.${printer[2] as 'open' | 'closed'}`),
      online: i18n.t(`tech:devices.tests.online.${printer[3] as 'online' | 'offline'}`),
    });
  const shown = /^shown: "(.*)" \/ "(.*)"$/.exec(detail);
  if (shown) return i18n.t('tech:devices.tests.shown', { top: shown[1] ?? '', bottom: shown[2] ?? '' });
  return detail;
}

/**
 * A sentence the core says in English, looked up in the catalog's table of them (`ns:path`), or undefined.
 * Read from the resource itself, not through `t`: the sentences hold ":" and ".", i18next's separators.
 */
export function knownWords(path: string, said: string): string | undefined {
  const [ns = '', key = ''] = path.split(':');
  for (const language of [i18n.language, 'en']) {
    const table: unknown = i18n.getResource(language, ns, key);
    if (typeof table !== 'object' || table === null) continue;
    const words: unknown = (table as Record<string, unknown>)[said];
    if (typeof words === 'string') return words;
  }
  return undefined;
}

/** Why a scan was refused, in the window's language when the catalog knows the core's sentence. */
export function scanProblemWords(problem: string | undefined): string {
  if (problem === undefined) return i18n.t('tech:devices.scanner.unreadable');
  return knownWords('tech:devices.scanner.problems', problem) ?? problem;
}
