import { describe, expect, it } from 'vitest';
import { EMV_ALGORITHMS, EmvCatalogError, computeEmv } from '../../../native/protocols/emv-crypto-catalog';
import { emvVectorFile, inputsOf } from '../../support/emv-vectors';

const { vectors } = emvVectorFile;

describe('EMV cryptography: every published vector (test/vectors/emv/emv-cryptograms.json)', () => {
  it('the file holds vectors, and every algorithm it names has an implementation', () => {
    expect(vectors.length).toBeGreaterThan(0);
    const missing = [...new Set(vectors.map((v) => v.algorithm))].filter((a) => !EMV_ALGORITHMS.includes(a));
    expect(missing).toEqual([]);
  });

  it.each(vectors.map((v, i) => [i, v.algorithm, v.source, v] as const))(
    'vector %i: %s (%s)',
    (_i, algorithm, _source, v) => {
      const { outputs } = computeEmv(algorithm, inputsOf(v));
      const names = Object.keys(v.expected);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) expect({ [name]: outputs[name] }).toEqual({ [name]: v.expected[name] });
    },
  );

  it('checks as many vectors as the file holds, each against all of its expected values', () => {
    let checked = 0;
    let values = 0;
    for (const v of vectors) {
      const { outputs } = computeEmv(v.algorithm, inputsOf(v));
      const wrong = Object.entries(v.expected).filter(([k, x]) => outputs[k] !== x);
      expect(wrong).toEqual([]);
      values += Object.keys(v.expected).length;
      checked += 1;
    }
    expect(checked).toBe(vectors.length);
    expect(values).toBe(vectors.reduce((n, v) => n + Object.keys(v.expected).length, 0));
  });
});

describe('EMV catalogue: malformed inputs are named, never echoed', () => {
  const key = '0123456789ABCDEFFEDCBA9876543210';
  const fail = (algorithm: string, inputs: Record<string, unknown>): EmvCatalogError => {
    try {
      computeEmv(algorithm, inputs);
    } catch (e) {
      if (e instanceof EmvCatalogError) return e;
      throw e;
    }
    throw new Error('expected an EmvCatalogError');
  };

  it('unknown algorithm', () => {
    expect(fail('arqc-by-magic', {}).code).toBe('unknown-algorithm');
    expect(fail('__proto__', {}).code).toBe('unknown-algorithm');
  });
  it('missing input', () => {
    const e = fail('icc-mk-option-a', { issuerMasterKey: key });
    expect(e.code).toBe('missing-input');
    expect(e.message).toBe("missing input 'pan'");
  });
  it('bad hex and wrong length, without the value in the message', () => {
    const bad = fail('icc-mk-option-a', { issuerMasterKey: 'XY23', pan: '4111111111111111' });
    expect(bad.code).toBe('bad-input');
    expect(bad.message).not.toContain('XY23');
    const short = fail('icc-mk-option-a', { issuerMasterKey: key.slice(2), pan: '4111111111111111' });
    expect(short.message).toBe("input 'issuerMasterKey' must be 16 bytes of hex");
    expect(short.message).not.toContain(key.slice(2));
  });
  it('a PAN that is not digits, a PSN of the wrong size, an unknown CVN', () => {
    expect(fail('icc-mk-option-b', { issuerMasterKey: key, pan: '4111-1111' }).message).toMatch(/'pan'/);
    expect(
      fail('icc-mk-option-b', { issuerMasterKey: key, pan: '4111111111111111', panSequenceNumber: '1' }).code,
    ).toBe('bad-input');
    expect(fail('cvn-visa', { cvn: 99 }).message).toMatch(/'cvn' must be one of 10, 18, 22/);
  });
  it('a primitive refusing its arguments surfaces as bad-input (EMV2000 tree too small for the ATC range)', () => {
    const e = fail('session-key-emv2000-tree', {
      iccMasterKey: key,
      atc: '0001',
      height: 2,
      branchFactor: 2,
    });
    expect(e.code).toBe('bad-input');
    expect(e.message).toMatch(/fewer leaves/);
  });
  it('inputs the algorithm did not use are reported (a misspelt optional input)', () => {
    const r = computeEmv('pin-block-iso9564-2', { pin: '1234', pinn: '5678', case: 'description only' });
    expect(r.ignoredInputs).toEqual(['pinn']);
  });
  it('KCVs print 2 bytes long unless kcvLength says 3', () => {
    expect(computeEmv('key-check-value', { key }).outputs.kcv).toBe('08D7');
    expect(
      computeEmv('icc-mk-option-a-kcv', {
        issuerMasterKey: key,
        pan: '1234567890123456',
        panSequenceNumber: '01',
        kcvLength: 3,
      }).outputs,
    ).toEqual({
      iccMasterKeyKcv: '02396B',
    });
  });
});
