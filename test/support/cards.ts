import { encodeTlvHex } from '../../native/protocols/ber-tlv';
import { memoryAtcStore } from '../../native/simulators/chip-atc';
import { ContactlessSimulator } from '../../native/simulators/contactless-simulator';
import { findTestCard } from '../../native/simulators/test-cards';
import { createMemoryPair } from '../../native/transports/byte-stream';
import { encryptTdesDukptPinBlock } from '../../native/protocols/dukpt-tdes';
import { SANDBOX_BDK } from '../../gateway/sandbox/test-cards';

/** Test-card data in the shapes readers produce, for tests only (sandbox PANs). */
export function track2(pan: string, yymm = '3012', service = '101'): string {
  return `;${pan}=${yymm}${service}0000000000?`;
}

export function swipe(pan: string, name = 'DOE/JOHN', yymm = '3012'): string {
  return `%B${pan}^${name}^${yymm}1010000000000000000?;${pan}=${yymm}1010000000000000?`;
}

/**
 * A tap of a sandbox test card, as the simulated contactless reader sends it: PAN (5A), track 2 (57),
 * expiry (5F24), the amounts, the card's real ARQC (9F26) under the sandbox issuer keys with the data it
 * covers, and 9F39 07. One ATC counter per PAN for the whole test process, so every tap is fresh.
 */
export function emvData(pan: string, amountCents: number): string {
  const card = findTestCard(pan);
  if (!card) throw new Error(`${pan.slice(-4)} is not a sandbox test card`);
  reader ??= new ContactlessSimulator(createMemoryPair('terminal', 'test-taps')[1], {
    autoTap: false,
    atcStore: memoryAtcStore(),
  });
  return encodeTlvHex(reader.tapRecord(card, { amountCents }));
}
let reader: ContactlessSimulator | undefined;

let ksnCounter = 0;
/** KSN + PIN block as the sandbox PIN pad would send them (TDES DUKPT, sandbox BDK, ISO 9564 format 0). */
export function pinBlock(pan: string, pin = '1234'): { KSN: string; PinBlock: string } {
  ksnCounter += 1;
  const ksn = 'FFFF9876543210E' + ksnCounter.toString(16).toUpperCase().padStart(5, '0');
  return { KSN: ksn, PinBlock: encryptTdesDukptPinBlock({ bdk: SANDBOX_BDK, ksn, pin, pan }) };
}
