import type { BarcodeScan, CardReaderEvent, DeviceRole, RoleApi } from '../drivers/roles';
import type { Timers } from '../drivers/timers';

/** What a tech's "test" button does per role (the tech screen and `npm run tool`). */

/** A track's YYMM expiry as the card shows it: MM/YY (ISO/IEC 7813 stores year first). */
export function expiryWords(yymm: string): string {
  return /^\d{4}$/.test(yymm) ? `${yymm.slice(2, 4)}/${yymm.slice(0, 2)}` : yymm;
}

export type DeviceTest =
  | { role: 'cardReader'; action: 'read-card'; timeoutMs?: number }
  | { role: 'pinPad'; action: 'display-text'; text?: string }
  | { role: 'contactless'; action: 'beep' | 'ping' }
  | { role: 'receiptPrinter'; action: 'print-test-receipt' | 'status' }
  | { role: 'scanner'; action: 'read-barcode'; timeoutMs?: number }
  | { role: 'poleDisplay'; action: 'display-test'; text?: string }
  | { role: DeviceRole; action: 'heartbeat' };

export type DeviceTestResult = { ok: true; detail: string } | { ok: false; error: string };

export type DeviceTestDeps = {
  devices: RoleApi;
  timers: Timers;
  /** Why the role cannot be tested now (not connected, and its state and last error), or undefined. */
  unavailable(role: DeviceRole): string | undefined;
  /**
   * A time as a person reads it on paper: the store's zone, which native/ does not know (the caller
   * formats; electron passes the receipt's own date line). Without one, the machine's local time with its
   * zone's name, so the paper still says which zone it is.
   */
  formatTime?: (at: number) => string;
  /** One heartbeat now; `hasHeartbeat` false when the role's protocol has none (then the port being open is the answer). */
  heartbeat(role: DeviceRole): Promise<{ ok: true; hasHeartbeat: boolean } | { ok: false; error: string }>;
};

/**
 * The machine's local time with its zone's short name. Made at each call, not once at load: the machine's
 * zone is the one in force when the tech prints. Written as a receipt's date line is ("11/22/2026 9:05 AM
 * EST"): no comma, and plain spaces, since a printer's code page has no narrow no-break space (recent ICU
 * puts one before AM/PM; it prints "?").
 */
function machineTime(at: number): string {
  const text = new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(at);
  return text.replace(',', '').replace(/[\u202f\u00a0]/g, ' ');
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The next card event, or undefined after `timeoutMs`. */
function nextCard(deps: DeviceTestDeps, timeoutMs: number): Promise<CardReaderEvent | undefined> {
  const { timers } = deps;
  return new Promise((resolve) => {
    const timer = timers.setTimeout(() => {
      off();
      resolve(undefined);
    }, timeoutMs);
    const off = deps.devices.cardReader.onCard((e) => {
      timers.clearTimeout(timer);
      off();
      resolve(e);
    });
  });
}

/** The next scan, or undefined after `timeoutMs`. */
function nextScan(deps: DeviceTestDeps, timeoutMs: number): Promise<BarcodeScan | undefined> {
  const { timers } = deps;
  return new Promise((resolve) => {
    const timer = timers.setTimeout(() => {
      off();
      resolve(undefined);
    }, timeoutMs);
    const off = deps.devices.scanner.onScan((e) => {
      timers.clearTimeout(timer);
      off();
      resolve(e);
    });
  });
}

/** A scan as the tech reads it: symbology, data, and valid or why not. */
export function describeScan(scan: BarcodeScan): string {
  const what = `${scan.symbology} ${scan.data}`;
  if (!scan.validated) return `${what}: refused, ${scan.problem ?? 'unreadable'}`;
  const price = scan.priceEmbedded
    ? `, price-embedded item ${scan.priceEmbedded.itemCode} at ${scan.priceEmbedded.priceCents} cents`
    : '';
  return `${what}: valid (${scan.checkedBy === 'check-digit' ? 'check digit verified' : 'checked by the scanner'})${price}`;
}

/** Runs a tech's device test; every outcome is an answer in plain words, never a throw. */
export async function runDeviceTest(deps: DeviceTestDeps, test: DeviceTest): Promise<DeviceTestResult> {
  const why = deps.unavailable(test.role);
  if (why !== undefined) return { ok: false, error: why };
  const { contactless, pinPad, receiptPrinter, poleDisplay } = deps.devices;
  try {
    switch (test.action) {
      case 'heartbeat': {
        const r = await deps.heartbeat(test.role);
        return r.ok
          ? { ok: true, detail: r.hasHeartbeat ? 'answered' : 'port open (protocol has no heartbeat)' }
          : { ok: false, error: r.error };
      }
      case 'read-card': {
        const timeoutMs = 'timeoutMs' in test && test.timeoutMs !== undefined ? test.timeoutMs : 15_000;
        const event = await nextCard(deps, timeoutMs);
        if (!event) return { ok: false, error: 'no card swiped' };
        return event.kind === 'swipe'
          ? { ok: true, detail: `${event.brand} ${event.maskedPan} exp ${expiryWords(event.expiry)}` }
          : { ok: false, error: event.message };
      }
      case 'read-barcode': {
        const timeoutMs = 'timeoutMs' in test && test.timeoutMs !== undefined ? test.timeoutMs : 15_000;
        const scan = await nextScan(deps, timeoutMs);
        if (!scan) return { ok: false, error: 'nothing scanned' };
        return scan.validated
          ? { ok: true, detail: describeScan(scan) }
          : { ok: false, error: describeScan(scan) };
      }
      case 'display-test': {
        // Row 2 is a ruler, so the tech sees all 20 columns light up.
        const text = 'text' in test && test.text !== undefined ? test.text : 'TILLPOINT TEST';
        await poleDisplay.showMessage(text, '12345678901234567890');
        const shown = poleDisplay.lines();
        return { ok: true, detail: shown ? `shown: "${shown[0].trim()}" / "${shown[1]}"` : 'sent' };
      }
      case 'display-text':
        await pinPad.display('text' in test && test.text !== undefined ? test.text : 'TILLPOINT TEST');
        return { ok: true, detail: 'text sent' };
      case 'beep':
        await contactless.beep();
        return { ok: true, detail: 'beeped' };
      case 'ping':
        return (await contactless.ping())
          ? { ok: true, detail: 'answered' }
          : { ok: false, error: 'no answer' };
      case 'status': {
        const st = await receiptPrinter.status();
        return {
          ok: true,
          detail: `paper ${st.paper}, cover ${st.coverOpen ? 'open' : 'closed'}, ${st.online ? 'online' : 'offline'}`,
        };
      }
      case 'print-test-receipt': {
        const r = await receiptPrinter.print({
          lines: [
            { kind: 'text', text: 'TILLPOINT', align: 'center', bold: true, large: true },
            { kind: 'text', text: 'Printer test', align: 'center' },
            { kind: 'rule' },
            { kind: 'pair', left: 'Time', right: (deps.formatTime ?? machineTime)(deps.timers.now()) },
            { kind: 'rule' },
          ],
        });
        return r.ok ? { ok: true, detail: 'printed' } : { ok: false, error: r.message };
      }
    }
  } catch (err) {
    return { ok: false, error: describe(err) };
  }
}
