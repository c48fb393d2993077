import { afterEach, describe, expect, it } from 'vitest';
import { tdesDecryptBlock } from '../../../native/protocols/block-cipher';
import { decryptTdesDukptPinBlock } from '../../../native/protocols/dukpt-tdes';
import { bytesToHex, hexToBytes } from '../../../native/protocols/hex';
import { decodePinBlockFormat0 } from '../../../native/protocols/iso9564-pin-block';
import { type SendResult, VerifoneLink } from '../../../native/protocols/verifone-link';
import { type VerifoneMessage, encodeMessage, parseMessage } from '../../../native/protocols/verifone-packet';
import {
  PinPadSimulator,
  type PinPadEvent,
  type PinPadSimulatorOptions,
  SANDBOX_BDK,
  SANDBOX_MASTER_KEY,
  nextKsn,
} from '../../../native/simulators/pinpad-simulator';
import { type Link, type Transport, openLink, waitFor } from './harness';

const PAN = '4111111111111111';

/** The test-side host: the shared link layer plus a log of what the pad answered. */
function host(link: Link, sevenBit = false) {
  const messages: VerifoneMessage[] = [];
  let eots = 0;
  let badPackets = 0;
  const vlink = new VerifoneLink({
    write: (b) => void link.host.write(b).catch(() => undefined),
    onPacket: (p) => {
      const m = parseMessage(p.kind, p.body);
      if (m.type !== 'unknown') messages.push(m);
    },
    onEot: () => (eots += 1),
    onBadPacket: () => (badPackets += 1),
    ackTimeoutMs: 500,
    sevenBit,
  });
  link.host.onData((c) => vlink.receive(c));
  return {
    messages,
    eots: () => eots,
    badPackets: () => badPackets,
    send: (m: VerifoneMessage): Promise<SendResult> => vlink.send(encodeMessage(m, { sevenBit })),
    close: () => vlink.close(),
  };
}

const z62 = (account = PAN): VerifoneMessage => ({
  type: 'Z62',
  account,
  minPinLength: 4,
  maxPinLength: 12,
  allowNullPin: false,
  prompt1: 'ENTER PIN',
  prompt2: 'THEN ENTER',
  processingPrompt: 'PROCESSING',
});

describe.each<Transport>(['memory', 'pty'])('PIN pad simulator over %s', (transport) => {
  let link: Link | undefined;
  let sim: PinPadSimulator | undefined;
  let h: ReturnType<typeof host> | undefined;

  afterEach(async () => {
    h?.close();
    sim?.stop();
    await link?.close();
    link = undefined;
    sim = undefined;
    h = undefined;
  });

  async function setup(opts: PinPadSimulatorOptions = {}, settings = {}, sevenBit = false) {
    link = await openLink(transport, settings);
    sim = new PinPadSimulator(link.device, { pin: '1234', ...opts });
    h = host(link, sevenBit);
    const events: PinPadEvent[] = [];
    sim.on((e) => events.push(e));
    return { link, sim, h, events };
  }

  it('Z2 shows text on the pad', async () => {
    const { sim, h } = await setup();
    await expect(h.send({ type: 'Z2', text: 'WELCOME', clear: true })).resolves.toEqual({
      ok: true,
      tries: 1,
    });
    await waitFor(() => sim.display === 'WELCOME');
  });

  it('Z62 DUKPT: the scripted PIN comes back as a 73 that the sandbox BDK decrypts to 1234, KSN advancing', async () => {
    const { h, sim } = await setup();
    for (const expectedKsn of ['FFFF9876543210E00001', 'FFFF9876543210E00002']) {
      await expect(h.send(z62())).resolves.toMatchObject({ ok: true });
      await waitFor(() => h.messages.some((m) => m.type === '73' && m.ksn === expectedKsn), 3000, '73');
      const r = h.messages.find((m) => m.type === '73' && m.ksn === expectedKsn);
      if (r?.type !== '73') throw new Error('no 73');
      expect(decryptTdesDukptPinBlock({ bdk: SANDBOX_BDK, ksn: r.ksn, pinBlock: r.pinBlock, pan: PAN })).toBe(
        '1234',
      );
    }
    expect(sim.ksn).toBe('FFFF9876543210E00002');
    expect(sim.display).toBe('PROCESSING');
  });

  it('70 shows the amount and waits for the UI keypad', async () => {
    const { h, sim, events } = await setup({ pin: undefined });
    await h.send({ type: '70', account: PAN, amountCents: 1234 });
    await waitFor(() => sim.state === 'awaiting-pin');
    expect(sim.display).toBe('AMOUNT $12.34');
    expect(events).toContainEqual({
      type: 'pin-request',
      mode: 'dukpt',
      prompt: 'AMOUNT $12.34',
      amountCents: 1234,
    });
    expect(sim.enterPin('12')).toBe(false);
    expect(sim.enterPin('4321')).toBe(true);
    await waitFor(() => h.messages.some((m) => m.type === '73'));
    const r = h.messages.find((m) => m.type === '73');
    if (r?.type !== '73') throw new Error('no 73');
    expect(decryptTdesDukptPinBlock({ bdk: SANDBOX_BDK, ksn: r.ksn, pinBlock: r.pinBlock, pan: PAN })).toBe(
      '4321',
    );
  });

  it('Z62 with a session key is answered by 71 under the master/session working key', async () => {
    const { h } = await setup();
    await h.send({ type: '08', keyIndex: 3 });
    const sessionKey = '0123456789ABCDEF0123456789ABCDEF';
    await h.send({ ...(z62() as Extract<VerifoneMessage, { type: 'Z62' }>), sessionKey });
    await waitFor(() => h.messages.some((m) => m.type === '71'));
    const r = h.messages.find((m) => m.type === '71');
    if (r?.type !== '71') throw new Error('no 71');
    expect(r).toMatchObject({ pinLength: 4, format: '01' });
    const mk = hexToBytes(SANDBOX_MASTER_KEY);
    const esk = hexToBytes(sessionKey);
    const wk = Uint8Array.from([
      ...tdesDecryptBlock(mk, esk.subarray(0, 8)),
      ...tdesDecryptBlock(mk, esk.subarray(8)),
    ]);
    const clear = bytesToHex(tdesDecryptBlock(wk, hexToBytes(r.pinBlock)));
    expect(decodePinBlockFormat0(clear, PAN)).toBe('1234');
  });

  it('a bad account is answered by a 71 error', async () => {
    const { h } = await setup();
    await h.send({ type: 'Z2', text: 'X', clear: false });
    // Built by hand: the message builder refuses short accounts.
    const body = 'Z62.1234\u001c0412NPIN\u001c\u001cWAIT';
    await link?.host.write(
      Uint8Array.from([
        0x02,
        ...Buffer.from(body, 'latin1'),
        0x03,
        [...Buffer.from(body, 'latin1'), 0x03].reduce((a, b) => a ^ b, 0),
      ]),
    );
    await waitFor(() => h.messages.some((m) => m.type === '71-error'));
    expect(h.messages.find((m) => m.type === '71-error')).toMatchObject({ code: '2' });
  });

  it('72 from the host cancels: the pad ACKs then sends EOT', async () => {
    const { h, sim, events } = await setup({ pin: undefined });
    await h.send(z62());
    await waitFor(() => sim.state === 'awaiting-pin');
    await expect(h.send({ type: '72' })).resolves.toMatchObject({ ok: true });
    await waitFor(() => h.eots() === 1, 3000, 'EOT');
    expect(sim.state).toBe('idle');
    expect(events).toContainEqual({ type: 'cancelled', by: 'host' });
  });

  it('Cancel on the pad and the entry timeout both end with EOT', async () => {
    const { h, sim, events } = await setup({ pin: undefined, pinTimeoutMs: 150 });
    await h.send(z62());
    await waitFor(() => sim.state === 'awaiting-pin');
    sim.pressCancel();
    await waitFor(() => h.eots() === 1, 3000, 'EOT after Cancel');
    await h.send(z62());
    await waitFor(() => h.eots() === 2, 3000, 'EOT after timeout');
    expect(events.filter((e) => e.type === 'cancelled')).toEqual([
      { type: 'cancelled', by: 'cardholder' },
      { type: 'cancelled', by: 'timeout' },
    ]);
  });

  it('NAK storm: the host tries 3 times, then sends EOT and fails', async () => {
    const { h } = await setup({ faults: { nakStorm: true } });
    await expect(h.send(z62())).resolves.toEqual({ ok: false, reason: 'nak-limit', tries: 3 });
  });

  it('bad LRC: the host NAKs the 73 three times and the pad gives up with EOT', async () => {
    const { h, events } = await setup({ faults: { badLrc: true } });
    await h.send(z62());
    await waitFor(() => h.eots() === 1, 4000, 'EOT from the pad');
    expect(h.badPackets()).toBe(3);
    expect(h.messages.filter((m) => m.type === '73')).toEqual([]);
    await waitFor(() => events.some((e) => e.type === 'link-failure'));
    expect(events).toContainEqual({ type: 'link-failure', reason: 'nak-limit' });
  });

  it('unplug mid-transaction: the request is ACKed, then the stream closes', async () => {
    const { h, link: l } = await setup({ faults: { unplugOnPinRequest: true } });
    let closed = false;
    l.host.onClose(() => (closed = true));
    await expect(h.send(z62())).resolves.toMatchObject({ ok: true });
    await waitFor(() => !l.device.isOpen, 3000, 'device end closed');
    // A pty stays up when one end closes; the USB adapter vanishing is socat going away.
    if (transport === 'pty') await l.pty?.close();
    await waitFor(() => closed, 3000, 'host end closed');
    expect(h.messages).toEqual([]);
  });

  it('slow responses arrive late but intact', async () => {
    const { h } = await setup({ faults: { slowMs: 200 } });
    const started = Date.now();
    await expect(h.send(z62())).resolves.toMatchObject({ ok: true });
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    await waitFor(() => h.messages.some((m) => m.type === '73'), 3000);
  });
});

describe('PIN pad simulator over a 7E1 pty', () => {
  it('every byte is 7-bit and PIN entry still works', async () => {
    const link = await openLink('pty', { dataBits: 7, parity: 'even' });
    const sim = new PinPadSimulator(link.device, { pin: '1234', sevenBit: true });
    const h = host(link, true);
    try {
      await h.send(z62());
      await waitFor(() => h.messages.some((m) => m.type === '73'));
      const r = h.messages.find((m) => m.type === '73');
      if (r?.type !== '73') throw new Error('no 73');
      expect(decryptTdesDukptPinBlock({ bdk: SANDBOX_BDK, ksn: r.ksn, pinBlock: r.pinBlock, pan: PAN })).toBe(
        '1234',
      );
    } finally {
      h.close();
      sim.stop();
      await link.close();
    }
  });
});

describe('nextKsn (X9.24-1 A.2 counter)', () => {
  it('advances by one and skips counters with more than ten one-bits', () => {
    expect(nextKsn('FFFF9876543210E00000')).toBe('FFFF9876543210E00001');
    expect(nextKsn('FFFF9876543210E003FE')).toBe('FFFF9876543210E003FF');
    expect(nextKsn('FFFF9876543210E007FE')).toBe('FFFF9876543210E00800');
    expect(nextKsn('FFFF9876543210E7FE00')).toBe('FFFF9876543210E80000');
    expect(nextKsn('FFFF9876543210FFF800')).toBeUndefined();
  });
});
