import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ToolError } from '../../../native/tool/command';
import { emv } from '../../../native/tool/commands/emv';
import { emvVectorFile, inputsOf } from '../../support/emv-vectors';

const root = fileURLToPath(new URL('../../..', import.meta.url));

type Run = { code: number; stdout: string; stderr: string };

function tool(args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'native/tool/cli.ts', ...args],
      { cwd: root, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const { vectors } = emvVectorFile;

describe('toolkit `emv ALGORITHM --json INPUTS`: the command for every published vector', () => {
  it('prints every expected value of every vector, under the expected names', () => {
    let checked = 0;
    for (const v of vectors) {
      const out = emv.run([v.algorithm, '--json', JSON.stringify(inputsOf(v))]) as Record<string, string>;
      for (const [name, value] of Object.entries(v.expected))
        expect({ [name]: out[name] }).toEqual({ [name]: value });
      checked += 1;
    }
    expect(checked).toBe(vectors.length);
    expect(checked).toBeGreaterThan(0);
  });

  it('a Mastercard CVN with a `pin` prints the PIN change command and its template 72', () => {
    // The reference implementation's worked example for CVN 17 (pyemv tests/test_cvn_hsm.py, values only).
    const out = emv.run([
      'cvn-mastercard',
      '--json',
      JSON.stringify({
        cvn: 17,
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
          '9F10': '0111A00003220000000000000000000322FF',
        },
        arc: '0010',
        pin: '9999',
      }),
    ]) as Record<string, string>;
    expect(out).toMatchObject({
      arqc: 'EAE8A620A75648D8',
      pinChangeCommand: '84240002108661C474E4940A4378390C64CB96756E',
      issuerScriptTemplate72PinChange: '721E9F180400000000861584240002108661C474E4940A4378390C64CB96756E',
    });
  });

  it('a malformed input is a ToolError naming it, never a stack trace', () => {
    const err = (args: string[]): ToolError => {
      try {
        emv.run(args);
      } catch (e) {
        if (e instanceof ToolError) return e;
        throw e;
      }
      throw new Error('expected a ToolError');
    };
    expect(err(['nope', '--json', '{}']).code).toBe('unknown-algorithm');
    expect(err(['key-check-value', '--json', '{"key":"0G"}']).code).toBe('bad-input');
    expect(err(['key-check-value', '--json', '{}']).message).toBe("missing input 'key'");
    expect(err(['key-check-value', '--json', '[1]']).code).toBe('bad-json');
    expect(err(['key-check-value']).code).toBe('usage');
  });
});

describe.concurrent('toolkit `emv` as a field tech runs it', { timeout: 120_000 }, () => {
  it("one real run prints the vector's expected object", async () => {
    const v = vectors.find((x) => x.algorithm.startsWith('cvn-')) ?? vectors[0];
    if (!v) throw new Error('no vectors');
    const r = await tool(['emv', v.algorithm, '--json', JSON.stringify(inputsOf(v))]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject(v.expected);
  });
  it('a wrong-length key is one line of JSON on stdout and exit 1', async () => {
    const r = await tool(['emv', 'key-check-value', '--json', '{"key":"0123456789ABCDEFFEDCBA98765432"}']);
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toEqual({
      error: { code: 'bad-input', message: "input 'key' must be 8 or 16 or 24 bytes of hex" },
    });
    expect(r.stdout + r.stderr).not.toContain('0123456789ABCDEFFEDCBA98765432');
    expect(r.stderr).not.toMatch(/\bat .*\.ts:\d+/);
  });
  it('--help lists every algorithm of the vectors file', async () => {
    const r = await tool(['emv', '--help']);
    expect(r.code).toBe(0);
    const names = (JSON.parse(r.stdout) as { algorithms: { name: string }[] }).algorithms.map((a) => a.name);
    const inFile = [...new Set(vectors.map((v) => v.algorithm))];
    expect(inFile.length).toBeGreaterThan(0);
    expect(inFile.filter((a) => !names.includes(a))).toEqual([]);
  });
});
