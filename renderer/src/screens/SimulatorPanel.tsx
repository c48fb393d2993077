import type { DeviceRoleName } from '../../../common/bridge/contract';
import { useApp, useAppStore, useSim, useSimStore } from '../state/context';
import { ErrorAlert } from '../ui/fields';
import { Keypad } from '../ui/Keypad';
import { roleWords } from './tech/DevicesScreen';

const roles = Object.keys(roleWords) as DeviceRoleName[];

/**
 * The sandbox device simulator (docs/decisions.md#sandbox-data): present a test card, type the PIN on the
 * simulated pad, sign on the simulated pad, and break things (paper out, unplug). Only in the sandbox with
 * simulated devices.
 */
export function SimulatorPanel() {
  const sim = useSim((s) => s.sim);
  const cardPan = useSim((s) => s.cardPan);
  const pin = useSim((s) => s.pin);
  const error = useSim((s) => s.error);
  const barcodeIndex = useSim((s) => s.barcodeIndex);
  const lastScan = useSim((s) => s.lastScan);
  const open = useApp((s) => s.simulatorOpen);
  const sandbox = useApp((s) => s.status?.sandbox === true);
  const store = useSimStore();
  const app = useAppStore();
  if (!sandbox || !sim?.available) return null;
  const s = store.getState();
  if (!open)
    return (
      <aside className="simulator closed" aria-label="Device simulator">
        <button
          type="button"
          className="btn btn-small"
          aria-expanded="false"
          onClick={() => app.getState().toggleSimulator(true)}
        >
          Show device simulator
        </button>
      </aside>
    );
  const selected = sim.testCards.find((c) => c.pan === cardPan);
  return (
    <aside className="simulator" aria-labelledby="sim-title">
      <div className="row" style={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <h2 id="sim-title" style={{ margin: 0 }}>
          Device simulator
        </h2>
        <button
          type="button"
          className="btn btn-small"
          aria-expanded="true"
          onClick={() => app.getState().toggleSimulator(false)}
        >
          Hide
        </button>
      </div>
      <p className="hint">Sandbox only: plays the customer and the hardware.</p>

      <div className="sim-section">
        <label htmlFor="sim-card">Test card</label>
        <select
          id="sim-card"
          value={String(
            Math.max(
              0,
              sim.testCards.findIndex((c) => c.pan === cardPan),
            ),
          )}
          onChange={(e) => s.chooseCard(sim.testCards[Number(e.target.value)]?.pan ?? '')}
          style={{ width: '100%' }}
        >
          {(['Stripe cards', 'Chip cards'] as const).map((group) => (
            <optgroup key={group} label={group}>
              {sim.testCards.map((c, i) =>
                c.chip === (group === 'Chip cards') ? (
                  // Options carry an index, not the number: even a test card's full number stays out of the page.
                  <option key={c.pan} value={String(i)}>
                    {c.brand} {c.maskedPan} — {c.note}
                  </option>
                ) : null,
              )}
            </optgroup>
          ))}
        </select>
        {selected ? <p className="hint">{selected.note}</p> : null}
        <div className="row" role="group" aria-label="Present the card" style={{ marginTop: '0.4rem' }}>
          <button type="button" className="btn" onClick={() => void s.swipe()} data-sim="swipe">
            Swipe
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => void s.insert()}
            disabled={!sim.chip.waitingForCard}
            data-sim="insert"
          >
            Insert chip
          </button>
          <button
            type="button"
            className="btn"
            onClick={() => void s.tap()}
            disabled={!sim.contactless.waitingForCard}
            data-sim="tap"
          >
            Tap
          </button>
          <button type="button" className="btn btn-small" onClick={() => void s.swipe(true)}>
            Bad swipe
          </button>
          <button
            type="button"
            className="btn btn-small"
            onClick={() => void s.removeCard()}
            disabled={!sim.chip.cardInserted}
            data-sim="remove-card"
          >
            Remove card
          </button>
        </div>
        <p className="hint" aria-live="polite" data-testid="sim-reader">
          {sim.chip.cardInserted
            ? 'A card is in the chip slot.'
            : sim.chip.waitingForCard && sim.contactless.waitingForCard
              ? 'The reader waits for an insert or a tap.'
              : sim.chip.waitingForCard
                ? 'The chip slot waits for a card.'
                : sim.contactless.waitingForCard
                  ? 'The reader waits for a tap.'
                  : 'The reader is idle.'}
        </p>
      </div>

      <div className="sim-section">
        <h3>PIN pad</h3>
        <div className="sim-pad" role="status" aria-label="PIN pad display">
          {sim.pinPad.display || ' '}
        </div>
        <p aria-live="polite">
          {sim.pinPad.awaitingPin
            ? `Asking for the PIN: ${'•'.repeat(pin.length) || 'type it'}`
            : 'Not asking for a PIN'}
        </p>
        <Keypad
          label="Simulated PIN pad keys"
          doubleZero={false}
          disabled={!sim.pinPad.awaitingPin}
          onDigit={(d) => s.pinDigit(d)}
          onBackspace={() => s.pinBackspace()}
        />
        <div className="row" style={{ marginTop: '0.4rem' }}>
          <button
            type="button"
            className="btn btn-primary"
            disabled={!sim.pinPad.awaitingPin || pin.length === 0}
            onClick={() => void s.enterPin()}
            data-sim="pin-enter"
          >
            Enter
          </button>
          <button
            type="button"
            className="btn"
            disabled={!sim.pinPad.awaitingPin}
            onClick={() => void s.cancelOnPad()}
          >
            Cancel on pad
          </button>
        </div>
      </div>

      <div className="sim-section">
        <h3>Signature pad</h3>
        <button type="button" className="btn" onClick={() => void s.sign()} data-sim="sign">
          Customer signs
        </button>
      </div>

      <div className="sim-section">
        <h3>Printer</h3>
        <div className="row">
          <label htmlFor="sim-paper" className="sr-only">
            Paper
          </label>
          <select
            id="sim-paper"
            value={sim.receiptPrinter.paper}
            onChange={(e) => void s.setPaper(e.target.value as 'ok' | 'near-end' | 'out')}
          >
            <option value="ok">Paper OK</option>
            <option value="near-end">Paper near end</option>
            <option value="out">Paper out</option>
          </select>
          <label className="check">
            <input
              type="checkbox"
              checked={sim.receiptPrinter.coverOpen}
              onChange={(e) => void s.setCoverOpen(e.target.checked)}
            />
            Cover open
          </label>
        </div>
        <p className="hint">
          {sim.receiptPrinter.receipts.length} receipt{sim.receiptPrinter.receipts.length === 1 ? '' : 's'}{' '}
          printed, drawer opened {sim.receiptPrinter.drawerKicks} time
          {sim.receiptPrinter.drawerKicks === 1 ? '' : 's'}.
        </p>
      </div>

      {sim.testBarcodes && sim.testBarcodes.length > 0 ? (
        <div className="sim-section">
          <h3>Barcode scanner</h3>
          <label htmlFor="sim-barcode">Label</label>
          <select
            id="sim-barcode"
            value={String(barcodeIndex)}
            onChange={(e) => s.chooseBarcode(Number(e.target.value))}
            style={{ width: '100%' }}
          >
            {sim.testBarcodes.map((b, i) => (
              <option key={`${b.symbology}-${b.data}`} value={String(i)}>
                {b.symbology.toUpperCase()} {b.data} — {b.note}
              </option>
            ))}
          </select>
          <div className="row" role="group" aria-label="Scan the label" style={{ marginTop: '0.4rem' }}>
            <button
              type="button"
              className="btn"
              onClick={() => void s.scan('serial')}
              data-sim="scan-serial"
            >
              Scan: serial
            </button>
            <button type="button" className="btn" onClick={() => void s.scan('hid')} data-sim="scan-hid">
              Scan: USB HID
            </button>
            <button type="button" className="btn" onClick={() => void s.scan('wedge')} data-sim="scan-wedge">
              Scan: keyboard
            </button>
          </div>
          <p className="hint" aria-live="polite" data-testid="sim-last-scan">
            {lastScan
              ? `Last scan: ${lastScan.symbology.toUpperCase()} ${lastScan.data} — ${
                  lastScan.validated ? 'valid' : `refused: ${lastScan.problem ?? 'unreadable'}`
                }`
              : 'No scan yet.'}
          </p>
        </div>
      ) : null}

      {sim.poleDisplay ? (
        <div className="sim-section">
          <h3>Pole display</h3>
          <div
            className="sim-pad"
            role="status"
            aria-label="Pole display"
            data-testid="sim-pole"
            // Two rows of exactly 20 characters, as the customer reads them.
            style={{ whiteSpace: 'pre', width: 'fit-content', fontSize: '1.05rem', letterSpacing: '0.05em' }}
          >
            {`${sim.poleDisplay.lines[0]}\n${sim.poleDisplay.lines[1]}`}
          </div>
        </div>
      ) : null}

      <div className="sim-section">
        <h3>Cables</h3>
        <ul style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {roles.map((r) => {
            const unplugged = sim.unplugged.includes(r);
            return (
              <li key={r} className="row" style={{ justifyContent: 'space-between', alignItems: 'center' }}>
                <span>{roleWords[r]}</span>
                <button
                  type="button"
                  className="btn btn-small"
                  onClick={() => void (unplugged ? s.replug(r) : s.unplug(r))}
                >
                  {unplugged ? 'Plug in' : 'Unplug'}
                  <span className="sr-only"> {roleWords[r]}</span>
                </button>
              </li>
            );
          })}
        </ul>
      </div>
      <ErrorAlert message={error} />
    </aside>
  );
}
