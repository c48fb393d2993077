import { ChipReaderDriver } from '../../native/drivers/chip-reader';
import type { ChipCompletion, ChipHostResponse, ChipStartResult } from '../../native/drivers/roles';
import { type TlvNode, decodeTlvHex, encodeTlvHex } from '../../native/protocols/ber-tlv';
import { hexToBytes } from '../../native/protocols/hex';
import { memoryAtcStore } from '../../native/simulators/chip-atc';
import { ChipSimulator, type ChipFaults } from '../../native/simulators/chip-simulator';
import { ContactlessSimulator } from '../../native/simulators/contactless-simulator';
import { CHIP_TEST_CARDS, findTestCard, type TestCard } from '../../native/simulators/test-cards';
import { createMemoryPair } from '../../native/transports/byte-stream';

export type ChipRead = Extract<ChipStartResult, { kind: 'online' }>;

/**
 * A sandbox chip card in the simulated contact reader, driven by the real driver over an in-process
 * link: `read` gives the EmvData the terminal sends the gateway (a real ARQC), `complete` hands the
 * gateway's answer to the card for its TC or AAC. One ATC counter per helper, from 1 (a fresh gateway).
 */
export function chipTerminal(pan: string, faults: ChipFaults = {}) {
  const card: TestCard | undefined = CHIP_TEST_CARDS.find((c) => c.pan === pan);
  if (!card) throw new Error(`${pan.slice(-4)} is not a sandbox chip card`);
  const [host, device] = createMemoryPair('terminal', 'reader');
  const sim = new ChipSimulator(device, { card, autoInsert: true, faults, atcStore: memoryAtcStore() });
  const driver = new ChipReaderDriver(host, { commandTimeoutMs: 1000, cardStepTimeoutMs: 3000 });
  return {
    card,
    sim,
    /** A new chip read; one left open (never completed) is cancelled first, as a cashier starting over. */
    async read(amountCents: number, otherAmountCents = 0): Promise<ChipRead> {
      if (driver.inTransaction()) await driver.cancel();
      const r = await driver.start({ amountCents, otherAmountCents, timeoutMs: 5000 });
      if (r.kind !== 'online') throw new Error(`the chip did not go online: ${r.kind}`);
      return r;
    },
    complete(response: ChipHostResponse | 'unable-to-go-online'): Promise<ChipCompletion> {
      return driver.complete(response);
    },
    async close(): Promise<void> {
      sim.stop();
      await driver.close();
    },
  };
}

/**
 * Taps of one sandbox test card on the simulated contactless reader: `tap` gives the record the reader
 * sends the terminal (the EmvData of a Contactless sale: 9F39 07 and the card's ARQC). One ATC counter
 * per helper, from 1 (a fresh gateway).
 */
export function contactlessCard(pan: string) {
  const card = findTestCard(pan);
  if (!card) throw new Error(`${pan.slice(-4)} is not a sandbox test card`);
  const [, device] = createMemoryPair('terminal', 'contactless-reader');
  const sim = new ContactlessSimulator(device, { card, autoTap: false, atcStore: memoryAtcStore() });
  return {
    tap(amountCents: number, otherAmountCents = 0): string {
      return encodeTlvHex(sim.tapRecord(card, { amountCents, otherAmountCents }));
    },
    close(): void {
      sim.stop();
    },
  };
}

/** The same EmvData without one tag (a record that lost an element, or a reader that never sent it). */
export function withoutTag(emvHex: string, tag: string): string {
  return encodeTlvHex(decodeTlvHex(emvHex).filter((n) => n.tag !== tag));
}

/** The same EmvData with one tag's value replaced (an attacker's or a bug's edit after the card signed). */
export function withTag(emvHex: string, tag: string, valueHex: string): string {
  const nodes: TlvNode[] = decodeTlvHex(emvHex).map((n) =>
    n.tag === tag ? { tag, value: hexToBytes(valueHex) } : n,
  );
  return encodeTlvHex(nodes);
}

export function tagOf(emvHex: string, tag: string): string | undefined {
  const n = decodeTlvHex(emvHex).find((x) => x.tag === tag);
  return n ? Buffer.from(n.value).toString('hex').toUpperCase() : undefined;
}
