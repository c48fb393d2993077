import { describe, expect, it } from 'vitest';
import { type LinkTimers, VerifoneLink } from '../../../native/protocols/verifone-link';
import {
  ACK,
  EOT,
  NAK,
  type DecodedPacket,
  bodyText,
  encodeMessage,
  encodeTransactionPacket,
} from '../../../native/protocols/verifone-packet';

/** Manual clock: timers fire only when the test advances time. */
function fakeTimers(): LinkTimers & { advance(ms: number): void; pending(): number } {
  let now = 0;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  return {
    setTimeout(fn, ms) {
      seq += 1;
      timers.set(seq, { at: now + ms, fn });
      return seq;
    },
    clearTimeout(h) {
      timers.delete(h as number);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= until)
          .sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = due[1].at;
        due[1].fn();
      }
      now = until;
    },
    pending: () => timers.size,
  };
}

function harness(opts: { acceptPacket?: (p: DecodedPacket) => boolean } = {}) {
  const timers = fakeTimers();
  const wire: number[][] = [];
  const packets: string[] = [];
  let eots = 0;
  const link = new VerifoneLink({
    write: (b) => wire.push([...b]),
    onPacket: (p) => packets.push(bodyText(p.body)),
    onEot: () => (eots += 1),
    timers,
    ...opts,
  });
  return { link, timers, wire, packets, eots: () => eots };
}

const Z2 = encodeMessage({ type: 'Z2', text: 'HELLO', clear: false });

describe('VerifoneLink sender (docs/devices.md §4.2)', () => {
  it('resolves on ACK after one transmission', async () => {
    const h = harness();
    const result = h.link.send(Z2);
    expect(h.wire).toEqual([[...Z2]]);
    h.link.receive(Uint8Array.of(ACK));
    await expect(result).resolves.toEqual({ ok: true, tries: 1 });
    expect(h.timers.pending()).toBe(0);
  });
  it('resends on NAK and, after the third NAK, sends EOT and fails', async () => {
    const h = harness();
    const result = h.link.send(Z2);
    h.link.receive(Uint8Array.of(NAK));
    h.link.receive(Uint8Array.of(NAK));
    h.link.receive(Uint8Array.of(NAK));
    await expect(result).resolves.toEqual({ ok: false, reason: 'nak-limit', tries: 3 });
    expect(h.wire).toEqual([[...Z2], [...Z2], [...Z2], [EOT]]);
  });
  it('recovers when a NAK is followed by an ACK', async () => {
    const h = harness();
    const result = h.link.send(Z2);
    h.link.receive(Uint8Array.of(NAK, ACK));
    await expect(result).resolves.toEqual({ ok: true, tries: 2 });
  });
  it('resends after 2 s of silence and gives up with EOT after three tries', async () => {
    const h = harness();
    const result = h.link.send(Z2);
    h.timers.advance(1999);
    expect(h.wire).toHaveLength(1);
    h.timers.advance(1);
    expect(h.wire).toHaveLength(2);
    h.timers.advance(4000);
    await expect(result).resolves.toEqual({ ok: false, reason: 'timeout', tries: 3 });
    expect(h.wire.at(-1)).toEqual([EOT]);
  });
  it('queues packets: the second goes out only after the first is ACKed', async () => {
    const h = harness();
    const a = h.link.send(Z2);
    const b = h.link.send(encodeMessage({ type: '72' }));
    expect(h.wire).toHaveLength(1);
    h.link.receive(Uint8Array.of(ACK));
    await a;
    expect(h.wire).toHaveLength(2);
    h.link.receive(Uint8Array.of(ACK));
    await expect(b).resolves.toMatchObject({ ok: true });
  });
  it('an EOT while a packet waits is reported, and the packet still waits for its own ACK', async () => {
    // An EOT is never the answer to a packet (the pad ends a session with it): one that crosses ours on
    // the wire belongs to what the pad was doing before it read our packet.
    const h = harness();
    let settled = false;
    const result = h.link.send(Z2).then((r) => {
      settled = true;
      return r;
    });
    h.link.receive(Uint8Array.of(EOT));
    expect(h.eots()).toBe(1);
    await Promise.resolve();
    expect(settled).toBe(false);
    h.link.receive(Uint8Array.of(ACK));
    await expect(result).resolves.toEqual({ ok: true, tries: 1 });
  });
  it('an ACK counts only while a packet awaits one: a late reply to an earlier copy is not the next packet’s', async () => {
    const h = harness();
    const first = h.link.send(Z2);
    h.timers.advance(2000);
    // The pad was slow: we sent the packet again, and now its ACK of the first copy arrives…
    expect(h.wire).toEqual([[...Z2], [...Z2]]);
    h.link.receive(Uint8Array.of(ACK));
    await expect(first).resolves.toEqual({ ok: true, tries: 2 });
    const cancel = encodeMessage({ type: '72' });
    let acked = false;
    const second = h.link.send(cancel).then((r) => {
      acked = true;
      return r;
    });
    // …and its ACK of the second copy is still on its way: the next packet waits for it.
    expect(h.wire).toHaveLength(2);
    h.link.receive(Uint8Array.of(ACK));
    await Promise.resolve();
    expect(acked).toBe(false);
    expect(h.wire.at(-1)).toEqual([...cancel]);
    expect(h.link.strayReplies).toBe(0);
    h.link.receive(Uint8Array.of(ACK));
    await expect(second).resolves.toEqual({ ok: true, tries: 1 });
  });
  it('a reply owed by an earlier copy that never comes holds the next packet one ACK wait, no longer', async () => {
    const h = harness();
    const first = h.link.send(Z2);
    h.timers.advance(2000);
    h.link.receive(Uint8Array.of(ACK));
    await first;
    const second = h.link.send(Z2);
    h.timers.advance(1999);
    expect(h.wire).toHaveLength(2);
    h.timers.advance(1);
    expect(h.wire).toHaveLength(3);
    // The owed reply arriving now is too late to be anything but stray… and is indistinguishable from
    // this copy's ACK: the protocol has no sequence numbers, so a wait of one ACK period is the bound.
    h.link.receive(Uint8Array.of(ACK));
    await expect(second).resolves.toEqual({ ok: true, tries: 1 });
  });
  it('an ACK or NAK with nothing waiting is stray: counted, and it acknowledges nothing later', async () => {
    const h = harness();
    h.link.receive(Uint8Array.of(ACK, NAK, ACK));
    expect(h.link.strayReplies).toBe(3);
    const result = h.link.send(Z2);
    expect(h.wire).toEqual([[...Z2]]);
    h.link.receive(Uint8Array.of(ACK));
    await expect(result).resolves.toEqual({ ok: true, tries: 1 });
  });
  it('tells the sender of its ACK before it reads the bytes that follow it', () => {
    const h = harness();
    const seen: string[] = [];
    const link = new VerifoneLink({
      write: () => undefined,
      onPacket: (p) => seen.push(bodyText(p.body)),
      timers: h.timers,
    });
    void link.send(Z2, () => seen.push('acked'));
    link.receive(Uint8Array.of(ACK, ...encodeTransactionPacket('73.0000')));
    expect(seen).toEqual(['acked', '73.0000']);
  });
  it('close() fails pending sends and stops timers', async () => {
    const h = harness();
    const result = h.link.send(Z2);
    h.link.close();
    await expect(result).resolves.toMatchObject({ ok: false, reason: 'closed' });
    expect(h.timers.pending()).toBe(0);
    await expect(h.link.send(Z2)).resolves.toMatchObject({ ok: false, reason: 'closed' });
  });
});

describe('VerifoneLink receiver', () => {
  it('ACKs a good packet and delivers it; NAKs a bad LRC', () => {
    const h = harness();
    const bad = encodeTransactionPacket('72');
    bad[bad.length - 1] = 0x7f;
    h.link.receive(bad);
    h.link.receive(encodeTransactionPacket('72'));
    expect(h.wire).toEqual([[NAK], [ACK]]);
    expect(h.packets).toEqual(['72']);
  });
  it('acceptPacket=false NAKs good packets (NAK storm fault)', () => {
    const h = harness({ acceptPacket: () => false });
    h.link.receive(Z2);
    expect(h.wire).toEqual([[NAK]]);
    expect(h.packets).toEqual([]);
  });
  it('two links talk to each other', async () => {
    const ha = harness();
    const hb = harness();
    const a = new VerifoneLink({
      write: (b) => bLink.receive(b),
      onPacket: () => undefined,
      timers: ha.timers,
    });
    const got: string[] = [];
    const bLink = new VerifoneLink({
      write: (b) => a.receive(b),
      onPacket: (p) => got.push(bodyText(p.body)),
      timers: hb.timers,
    });
    await expect(a.send(Z2)).resolves.toEqual({ ok: true, tries: 1 });
    expect(got).toEqual(['Z2HELLO']);
  });
});
