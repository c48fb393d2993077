import { describe, expect, it } from 'vitest';
import { encodeTlv } from '../../../native/protocols/ber-tlv';
import {
  CRYPTOGRAM_VERSIONS,
  acDataTailFromIad,
  deriveIccMasterKeys,
  pinChangeCommand,
} from '../../../native/protocols/emv-cryptogram-versions';
import {
  buildIssuerScript,
  decodeScriptResults,
  encodeScriptResults,
  parseIssuerScript,
} from '../../../native/protocols/emv-issuer-script';
import {
  EmvKeyError,
  adjustKeyParity,
  deriveCommonSessionKey,
  keyCheckValue,
} from '../../../native/protocols/emv-keys';
import { bytesToHex, hexToBytes } from '../../../native/protocols/hex';
import { padIso9797Method1, padIso9797Method2 } from '../../../native/protocols/iso9797-mac';

const h = hexToBytes;

describe('ISO/IEC 9797-1 padding', () => {
  it('method 1 pads with zeros only when needed; empty data becomes one zero block', () => {
    expect(bytesToHex(padIso9797Method1(h('1234')))).toBe('1234000000000000');
    expect(bytesToHex(padIso9797Method1(h('0102030405060708')))).toBe('0102030405060708');
    expect(bytesToHex(padIso9797Method1(new Uint8Array(0)))).toBe('0000000000000000');
  });
  it('method 2 always adds 80, so a full block gains a block', () => {
    expect(bytesToHex(padIso9797Method2(h('1234')))).toBe('1234800000000000');
    expect(bytesToHex(padIso9797Method2(h('0102030405060708')))).toBe('01020304050607088000000000000000');
    expect(bytesToHex(padIso9797Method2(new Uint8Array(0)))).toBe('8000000000000000');
  });
});

describe('EMV keys', () => {
  it('odd parity per byte (pyemv tools.adjust_key_parity docstring)', () => {
    expect(bytesToHex(adjustKeyParity(h('1A2B3C4D5F0A1B2C4D5F6A7B8C9D0F1A')))).toBe(
      '1A2A3D4C5E0B1A2C4C5E6B7A8C9D0E1A',
    );
  });
  it('a KCV takes the requested number of leftmost bytes of the same block', () => {
    const key = h('0123456789ABCDEFFEDCBA9876543210');
    expect(bytesToHex(keyCheckValue(key, 3)).startsWith(bytesToHex(keyCheckValue(key, 2)))).toBe(true);
  });
  it('refuses a single-length master key and an R that is not 8 bytes, without echoing them', () => {
    expect(() => deriveCommonSessionKey(h('0123456789ABCDEF'), new Uint8Array(8))).toThrow(EmvKeyError);
    expect(() => deriveCommonSessionKey(h('0123456789ABCDEFFEDCBA9876543210'), new Uint8Array(4))).toThrow(
      /R is 8 bytes/,
    );
  });
});

describe('cryptogram versions', () => {
  it('CVR and counters are read from 9F10 where the CVN MACs only part of it', () => {
    const mc17 = CRYPTOGRAM_VERSIONS['mastercard-17'];
    const tail = acDataTailFromIad(mc17, h('0111A00003220000000000000000000322FF'));
    expect(bytesToHex(tail.cvr ?? new Uint8Array(0))).toBe('A00003220000');
    expect(bytesToHex(tail.counters ?? new Uint8Array(0))).toBe('00000000000322FF');
    const v10 = acDataTailFromIad(CRYPTOGRAM_VERSIONS['visa-10'], h('06010A03A0601000'));
    expect(bytesToHex(v10.cvr ?? new Uint8Array(0))).toBe('03A06010');
    expect(acDataTailFromIad(CRYPTOGRAM_VERSIONS['visa-18'], h('06011203A0B800')).iad).toBeDefined();
  });
  it('a Mastercard PIN change cannot be authenticated with the current PIN', () => {
    const v = CRYPTOGRAM_VERSIONS['mastercard-16'];
    const k = h('0123456789ABCDEFFEDCBA9876543210');
    const icc = deriveIccMasterKeys(v, { ac: k, smi: k, smc: k }, '5555555555554444');
    expect(() =>
      pinChangeCommand(v, icc, { pin: '1234', currentPin: '9999', atc: h('0001'), arqc: new Uint8Array(8) }),
    ).toThrow(/current PIN/);
  });
});

describe('issuer scripts and 9F5B', () => {
  it('a 72 template round-trips (script id and one command)', () => {
    const node = buildIssuerScript({
      template: '72',
      scriptId: h('00000000'),
      commands: [h('8424000008ED0AB162BAB1DE61')],
    });
    expect(bytesToHex(encodeTlv([node]))).toBe('72169F180400000000860D8424000008ED0AB162BAB1DE61');
    const parsed = parseIssuerScript(node);
    expect(parsed.ok && parsed.script.commands.map(bytesToHex)).toEqual(['8424000008ED0AB162BAB1DE61']);
  });
  it('a command whose Lc disagrees with its length is a format error (Book 4 §12.2.4)', () => {
    const node = buildIssuerScript({
      template: '71',
      scriptId: h('00000007'),
      commands: [h('8424000009AABB')],
    });
    const parsed = parseIssuerScript(node);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.scriptId && bytesToHex(parsed.scriptId)).toBe('00000007');
  });
  it('9F5B: 5 bytes per script, outcome nibble and failing command, id zero-filled when absent', () => {
    const value = encodeScriptResults([
      { outcome: 'successful', failedCommand: 0, scriptId: h('00000001') },
      { outcome: 'failed', failedCommand: 2, scriptId: new Uint8Array(0) },
      { outcome: 'not-performed', failedCommand: 0, scriptId: h('00000003') },
    ]);
    expect(bytesToHex(value)).toBe('2000000001' + '1200000000' + '0000000003');
    expect(decodeScriptResults(value)?.map((r) => r.outcome)).toEqual([
      'successful',
      'failed',
      'not-performed',
    ]);
    expect(decodeScriptResults(h('2000'))).toBeUndefined();
  });
});
