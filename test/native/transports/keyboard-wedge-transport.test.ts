import { describe, expect, it } from 'vitest';
import { track2For, TEST_CARDS } from '../../../native/simulators/test-cards';
import { createRecordedHidPort } from '../../../native/transports/hid-transport';
import { createKeyboardWedgeTransport } from '../../../native/transports/keyboard-wedge-transport';
import { createManualTimers } from '../support/manual-timers';

describe('keyboard-wedge transport', () => {
  it('releases a lone sentinel the cashier typed once the keys go quiet', () => {
    const clock = createManualTimers();
    const wedge = createKeyboardWedgeTransport({ clock: clock.timers, maxGapMs: 50 });
    const typed: string[] = [];
    const swipes: string[] = [];
    wedge.onTyped((t) => typed.push(t));
    wedge.onSwipe((s) => swipes.push(s));
    wedge.pushKey('%');
    wedge.pushKey('5');
    expect(typed).toEqual([]);
    clock.advance(60);
    expect(typed.join('')).toBe('%5');
    expect(swipes).toEqual([]);
  });

  it('ignores named keys other than Enter, and stops after close', async () => {
    const clock = createManualTimers();
    const wedge = createKeyboardWedgeTransport({ clock: clock.timers });
    const swipes: string[] = [];
    wedge.onSwipe((s) => swipes.push(s));
    for (const k of ['Shift', ...track2For(TEST_CARDS[0]!), 'Shift', 'Enter']) wedge.pushKey(k);
    expect(swipes).toEqual([track2For(TEST_CARDS[0]!)]);
    const closed = new Promise<Error | undefined>((resolve) => wedge.onClose(resolve));
    await wedge.close();
    expect(await closed).toBeUndefined();
    wedge.pushKey(';');
    wedge.pushKey('Enter');
    expect(swipes).toHaveLength(1);
  });

  it('reads boot-keyboard reports from an attached hidraw keyboard and closes with it', async () => {
    const wedge = createKeyboardWedgeTransport();
    const { port, device } = createRecordedHidPort({ info: { vendorId: 0x0801, productId: 0x0001 } });
    wedge.attach(port);
    const typed: string[] = [];
    wedge.onTyped((t) => typed.push(t));
    device.emitReport(Uint8Array.of(0x02, 0, 0x04, 0, 0, 0, 0, 0)); // shift + 'a'
    device.emitReport(new Uint8Array(8));
    const closed = new Promise<Error | undefined>((resolve) => wedge.onClose(resolve));
    device.unplug();
    expect((await closed)?.message).toMatch(/disconnected/);
    expect(typed).toEqual(['A']);
    expect(wedge.isOpen).toBe(false);
  });
});
