import { encodeTlvHex } from '../../native/protocols/ber-tlv';
import { hexToBytes } from '../../native/protocols/hex';
import { encryptTdesDukptPinBlock } from '../../native/protocols/dukpt-tdes';
import { SANDBOX_BDK } from '../../gateway/sandbox/test-cards';

/** Test-card data in the shapes readers produce, for tests only (sandbox PANs). */
export function track2(pan: string, yymm = '3012', service = '101'): string {
  return `;${pan}=${yymm}${service}0000000000?`;
}

export function swipe(pan: string, name = 'DOE/JOHN', yymm = '3012'): string {
  return `%B${pan}^${name}^${yymm}1010000000000000000?;${pan}=${yymm}1010000000000000?`;
}

/** A chip read: PAN (5A), expiry (5F24), amount (9F02), an ARQC cryptogram (9F26) and friends. */
export function emvData(pan: string, amountCents: number, yymmdd = '301231'): string {
  const node = (tag: string, hex: string) => ({ tag, value: hexToBytes(hex) });
  const panHex = pan.length % 2 === 0 ? pan : pan + 'F';
  return encodeTlvHex([
    node('5A', panHex),
    node('5F24', yymmdd),
    node('9F02', String(amountCents).padStart(12, '0')),
    node('5F2A', '0840'),
    node('9F26', 'D737017E33C78692'),
    node('9F27', '80'),
    node('9F36', '00E0'),
    node('95', '0000008000'),
  ]);
}

let ksnCounter = 0;
/** KSN + PIN block as the sandbox PIN pad would send them (TDES DUKPT, sandbox BDK, ISO 9564 format 0). */
export function pinBlock(pan: string, pin = '1234'): { KSN: string; PinBlock: string } {
  ksnCounter += 1;
  const ksn = 'FFFF9876543210E' + ksnCounter.toString(16).toUpperCase().padStart(5, '0');
  return { KSN: ksn, PinBlock: encryptTdesDukptPinBlock({ bdk: SANDBOX_BDK, ksn, pin, pan }) };
}
