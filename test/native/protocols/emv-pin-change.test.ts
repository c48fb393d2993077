import { describe, expect, it } from 'vitest';
import { computeEmv } from '../../../native/protocols/emv-crypto-catalog';
import {
  type CryptogramVersion,
  CRYPTOGRAM_VERSIONS,
  cryptogramVersion,
  deriveIccMasterKeys,
  pinChangeCommand,
  readPinChangeCommand,
  scriptCommandMac,
  secureMessagingSessionKey,
} from '../../../native/protocols/emv-cryptogram-versions';
import { decryptCommandData, encryptCommandData } from '../../../native/protocols/emv-secure-messaging';
import { bytesToHex, hexToBytes } from '../../../native/protocols/hex';
import { emvVectorFile } from '../../support/emv-vectors';

const h = hexToBytes;

/**
 * The card's side of an issuer PIN change (EMV 4.4 Book 2 §9.2-9.3, the schemes' profiles in
 * emv-cryptogram-versions.ts): the command's MAC checked under the SM integrity session key, its PIN block
 * deciphered under the confidentiality session key and read. Every PIN change command the published
 * vectors hold must read back to the PIN it was made for.
 */
describe('reading a PIN change command, as the card does', () => {
  const withPin = emvVectorFile.vectors.filter((v) => v.expected.pinChangeCommand !== undefined);

  it('the vectors file holds PIN change commands', () => {
    expect(withPin.length).toBeGreaterThan(0);
  });

  it.each(withPin.map((v, i) => [i, v.algorithm, v.inputs.cvn, v] as const))(
    'vector %i: %s CVN %s reads back to its PIN',
    (_i, algorithm, cvn, v) => {
      const scheme = algorithm.replace('cvn-', '') as CryptogramVersion['scheme'];
      const version = cryptogramVersion(scheme, Number(cvn));
      if (!version) throw new Error(`no profile for ${algorithm} ${String(cvn)}`);
      const inputs = v.inputs as Record<string, unknown> & { tags: Record<string, string> };
      const icc = deriveIccMasterKeys(
        version,
        {
          ac: h(String(inputs.issuerMasterKeyAc)),
          smi: h(String(inputs.issuerMasterKeySmi)),
          smc: h(String(inputs.issuerMasterKeySmc)),
        },
        String(inputs.pan),
        String(inputs.panSequenceNumber),
      );
      const tx = { atc: h(inputs.tags['9F36'] ?? ''), arqc: h(v.expected.arqc ?? '') };
      expect(
        readPinChangeCommand(version, icc, { ...tx, command: h(v.expected.pinChangeCommand ?? '') }),
      ).toEqual({ ok: true, pin: inputs.pin });
      const withCurrent = v.expected.pinChangeCommandWithCurrentPin;
      if (withCurrent === undefined) return;
      // P2 = 01: the new PIN is masked with the current one, which only the card (and the issuer) knows.
      expect(
        readPinChangeCommand(version, icc, {
          ...tx,
          command: h(withCurrent),
          currentPin: String(inputs.currentPin),
        }),
      ).toEqual({ ok: true, pin: inputs.pin });
      expect(readPinChangeCommand(version, icc, { ...tx, command: h(withCurrent) })).toEqual({
        ok: false,
        reason: 'pin-block',
      });
      expect(
        readPinChangeCommand(version, icc, { ...tx, command: h(withCurrent), currentPin: '1111' }),
      ).toEqual({ ok: false, reason: 'pin-block' });
    },
  );

  const workedExample = {
    issuerMasterKeyAc: '0123456789ABCDEFFEDCBA9876543210',
    issuerMasterKeySmi: 'FEDCBA98765432100123456789ABCDEF',
    issuerMasterKeySmc: '89ABCDEF0123456776543210FEDCBA98',
    pan: '1234567890123456',
    panSequenceNumber: '00',
    tags: {
      '9F02': '000000009999',
      '9F03': '000000000000',
      '9F1A': '0124',
      '95': '8000000000',
      '5F2A': '0124',
      '9A': '209906',
      '9C': '00',
      '9F37': 'ABCDEF12',
      '82': '1800',
      '9F36': '001C',
    },
    cvr: 'A00003220000',
    counters: '00000000000322FF',
    arc: '0010',
    commandHeader: '8424000008',
    pin: '9999',
  };

  // The reference implementation's own tests (knovichikhin/pyemv tests/test_cvn_hsm.py, commit cf6b82d),
  // whose comments give the PIN change's template 72 for these two versions; the values only, not code.
  it.each([
    [
      17,
      {
        arqc: 'EAE8A620A75648D8',
        arpc: '29CF11FBDB9CA650',
        commandMac: '4D1858456CD0F22A',
        sessionKeySmiKcv: '6CAF',
        sessionKeySmcKcv: '3D99',
        pinChangeCommand: '84240002108661C474E4940A4378390C64CB96756E',
        issuerScriptTemplate72PinChange: '721E9F180400000000861584240002108661C474E4940A4378390C64CB96756E',
      },
    ],
    [
      21,
      {
        arqc: 'C30E54BE496CF5E5',
        arpc: '4F51F9CC63CE8B3C',
        commandMac: '5E89E990C51CEE94',
        sessionKeySmiKcv: 'F4C4',
        sessionKeySmcKcv: 'BB95',
        pinChangeCommand: '8424000210D9F5896BE8E283C682264E1D32DF1D51',
        issuerScriptTemplate72PinChange: '721E9F18040000000086158424000210D9F5896BE8E283C682264E1D32DF1D51',
      },
    ],
  ] as const)(
    'Mastercard CVN %i: the worked example, its PIN change command and template 72',
    (cvn, expected) => {
      const { outputs } = computeEmv('cvn-mastercard', { ...workedExample, cvn });
      for (const [name, value] of Object.entries(expected))
        expect({ [name]: outputs[name] }).toEqual({ [name]: value });
      const version = cryptogramVersion('mastercard', cvn);
      if (!version) throw new Error('no profile');
      const icc = deriveIccMasterKeys(
        version,
        {
          ac: h(workedExample.issuerMasterKeyAc),
          smi: h(workedExample.issuerMasterKeySmi),
          smc: h(workedExample.issuerMasterKeySmc),
        },
        workedExample.pan,
      );
      expect(
        readPinChangeCommand(version, icc, {
          command: h(expected.pinChangeCommand),
          atc: h('001C'),
          arqc: h(expected.arqc),
        }),
      ).toEqual({ ok: true, pin: '9999' });
    },
  );

  it('the Mastercard vectors of the file: template 72 wraps the published PIN change command', () => {
    const mastercard = withPin.filter((v) => v.algorithm === 'cvn-mastercard');
    expect(mastercard.length).toBeGreaterThan(0);
    for (const v of mastercard) {
      const { outputs } = computeEmv('cvn-mastercard', v.inputs);
      const command = v.expected.pinChangeCommand ?? '';
      const length = (command.length / 2).toString(16).padStart(2, '0').toUpperCase();
      const body = `9F180400000000` + `86${length}${command}`;
      expect(outputs.issuerScriptTemplate72PinChange).toBe(
        `72${(body.length / 2).toString(16).padStart(2, '0').toUpperCase()}${body}`,
      );
    }
  });

  describe('what the card refuses', () => {
    const v = CRYPTOGRAM_VERSIONS['mastercard-16'];
    const k = h('0123456789ABCDEFFEDCBA9876543210');
    const icc = deriveIccMasterKeys(
      v,
      { ac: k, smi: h('FEDCBA98765432100123456789ABCDEF'), smc: k },
      '5100000000000024',
      '01',
    );
    const tx = { atc: h('0007'), arqc: h('1122334455667788') };
    const command = pinChangeCommand(v, icc, { pin: '2468', ...tx });

    it('a command altered in any byte fails its MAC (or is not a PIN change at all)', () => {
      for (let i = 0; i < command.length; i += 1) {
        const altered = Uint8Array.from(command);
        altered[i] = (altered[i] ?? 0) ^ 0x01;
        expect(readPinChangeCommand(v, icc, { ...tx, command: altered }).ok).toBe(false);
      }
      expect(readPinChangeCommand(v, icc, { ...tx, command })).toEqual({ ok: true, pin: '2468' });
    });

    it('a command made for another transaction or another card fails its MAC', () => {
      expect(readPinChangeCommand(v, icc, { ...tx, arqc: h('1122334455667789'), command })).toEqual({
        ok: false,
        reason: 'mac',
      });
      const other = deriveIccMasterKeys(
        v,
        { ac: k, smi: h('FEDCBA98765432100123456789ABCDEF'), smc: k },
        '5100000000000016',
        '01',
      );
      expect(readPinChangeCommand(v, other, { ...tx, command })).toEqual({ ok: false, reason: 'mac' });
    });

    it('a well-MACed command whose PIN block is not one is refused', () => {
      const smc = secureMessagingSessionKey(v, icc.smc, tx.atc, tx.arqc);
      const notABlock = encryptCommandData(smc, h('2412AB4FFFFFFFFF'), v.encryption);
      const header = Uint8Array.of(0x84, 0x24, 0x00, 0x02, notABlock.length + 8);
      const mac = scriptCommandMac(v, icc.smi, header, tx.atc, tx.arqc, notABlock);
      const forged = Uint8Array.from([...header, ...notABlock, ...mac]);
      expect(readPinChangeCommand(v, icc, { ...tx, command: forged })).toEqual({
        ok: false,
        reason: 'pin-block',
      });
    });

    it('other commands are not PIN changes: PIN UNBLOCK, PUT DATA, a truncated one', () => {
      expect(readPinChangeCommand(v, icc, { ...tx, command: h('8424000008ED0AB162BAB1DE61') })).toEqual({
        ok: false,
        reason: 'not-pin-change',
      });
      expect(readPinChangeCommand(v, icc, { ...tx, command: command.subarray(0, 12) }).ok).toBe(false);
    });
  });
});

describe('command-data decipherment inverts the published encipherment', () => {
  it('EMV: the sm-encrypt-command-data vector deciphers to its ISO 9564 format 2 block', () => {
    const key = h('0123456789ABCDEFFEDCBA9876543210');
    expect(
      bytesToHex(decryptCommandData(key, h('5A862D1381CCB94822CFDD706A376178'), 'emv') ?? new Uint8Array(0)),
    ).toBe('249999FFFFFFFFFF');
  });
  it('each scheme’s padding comes off again; a wrong key or length answers null for EMV and Visa', () => {
    const key = h('0123456789ABCDEFFEDCBA9876543210');
    for (const data of [h('041234FF76543210'), h('0102030405'), h('01020304050607080910')]) {
      for (const kind of ['emv', 'visa'] as const)
        expect(
          bytesToHex(decryptCommandData(key, encryptCommandData(key, data, kind), kind) ?? new Uint8Array(0)),
        ).toBe(bytesToHex(data));
    }
    // Mastercard pads only a partial block, so a whole block deciphers to itself.
    const block = h('249999FFFFFFFFFF');
    expect(
      bytesToHex(
        decryptCommandData(key, encryptCommandData(key, block, 'mastercard'), 'mastercard') ??
          new Uint8Array(0),
      ),
    ).toBe('249999FFFFFFFFFF');
    expect(decryptCommandData(key, h('01020304'), 'emv')).toBeNull();
    const wrong = h('FEDCBA98765432100123456789ABCDEF');
    expect(decryptCommandData(wrong, encryptCommandData(key, h('0102030405'), 'visa'), 'visa')).toBeNull();
  });
});
