import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadVector } from '../../support/vectors';

const root = fileURLToPath(new URL('../../..', import.meta.url));

type Run = { code: number; json: unknown; stdout: string; stderr: string };

function tool(args: string[], stdin?: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'native/tool/cli.ts', ...args],
      // Each run starts Node with the tsx loader: seconds on a busy 2-core machine.
      { cwd: root, timeout: 90_000 },
      (error, stdout, stderr) => {
        let json: unknown;
        try {
          json = JSON.parse(stdout);
        } catch {
          json = undefined;
        }
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        resolve({ code, json, stdout, stderr });
      },
    );
    child.stdin?.end(stdin ?? '');
  });
}

type TdesVectors = {
  bdk: string;
  ipek: string;
  pin: string;
  pan: string;
  rows: { ksn: string; pinKey: string; encryptedPinBlock: string }[];
};
type AesVectors = {
  bdk: string;
  initialKey: string;
  firstKsn: string;
  pinBlockFormat4: { pinKey: string; pin: string; pan: string; randomPad: string; encrypted: string };
};
const tdes = loadVector<TdesVectors>('ansi-x9.24-dukpt/dukpt-tdes.json');
const aes = loadVector<AesVectors>('ansi-x9.24-dukpt/dukpt-aes.json');
const emv = loadVector<{ hex: string; tlvCount: number; decoded: { pan: string } }>('emv/emv-tlv.json');
const SWIPE = '%B4111111111111111^DOE/JOHN^2812101000000000000000000?;4111111111111111=28121010000000000000?';

// Each case spawns the CLI as a field tech would; they run concurrently to keep the file quick.
describe.concurrent('field tech toolkit CLI', { timeout: 120_000 }, () => {
  it('dukpt: TDES IPEK, PIN key and block for a published test key and a packet-73 KSN', async () => {
    const row = tdes.rows[0];
    if (!row) throw new Error('no rows');
    const r = await tool([
      'dukpt',
      '--bdk',
      tdes.bdk,
      '--ksn',
      row.ksn.replace(/^F+/, ''),
      '--pin',
      tdes.pin,
      '--pan',
      tdes.pan,
    ]);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({
      ipek: tdes.ipek,
      pinKey: row.pinKey,
      pinBlock: row.encryptedPinBlock,
      ksn: row.ksn,
    });
  });

  it('dukpt: AES initial key, PIN key and format 4 block', async () => {
    const p = aes.pinBlockFormat4;
    const r = await tool([
      'dukpt',
      '--bdk',
      aes.bdk,
      '--ksn',
      aes.firstKsn,
      '--pin',
      p.pin,
      '--pan',
      p.pan,
      '--random-pad',
      p.randomPad,
    ]);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ ipek: aes.initialKey, pinKey: p.pinKey, pinBlock: p.encrypted });
  });

  it('dukpt: refuses a BDK that is not a published test key unless --test-key, without echoing it', async () => {
    const bdk = '00112233445566778899AABBCCDDEEFF';
    const args = [
      'dukpt',
      '--bdk',
      bdk,
      '--ksn',
      'FFFF9876543210E00001',
      '--pin',
      '1234',
      '--pan',
      '4012345678909',
    ];
    const refused = await tool(args);
    expect(refused.code).toBe(1);
    expect(refused.json).toMatchObject({ error: { code: 'not-a-test-key' } });
    expect(refused.stdout).not.toContain(bdk);
    expect(refused.stderr).toBe('');
    const accepted = await tool([...args, '--test-key']);
    expect(accepted.code).toBe(0);
    expect(accepted.json).toMatchObject({ pinBlock: expect.stringMatching(/^[0-9A-F]{16}$/) as unknown });
  });

  it('dukpt: bad input is a JSON error, never a stack trace', async () => {
    const badKsn = await tool([
      'dukpt',
      '--bdk',
      tdes.bdk,
      '--ksn',
      'XYZ',
      '--pin',
      '1234',
      '--pan',
      tdes.pan,
    ]);
    expect(badKsn.code).toBe(1);
    expect(badKsn.json).toMatchObject({ error: { code: 'ksn' } });
    const r = await tool([
      'dukpt',
      '--bdk',
      tdes.bdk,
      '--ksn',
      'FFFF9876543210E00001',
      '--pin',
      '12',
      '--pan',
      tdes.pan,
    ]);
    expect(r.code).toBe(1);
    expect(r.json).toMatchObject({ error: { code: 'pin' } });
    const missing = await tool(['dukpt', '--bdk', tdes.bdk, '--what', '4111111111111111']);
    expect(missing.json).toMatchObject({ error: { code: 'usage' } });
    expect(missing.stdout).not.toContain('4111111111111111');
    for (const out of [badKsn, r, missing]) expect(out.stdout + out.stderr).not.toMatch(/\bat .+:\d+:\d+/);
  });

  it('track: parsed fields with the PAN masked and no discretionary data', async () => {
    const r = await tool(['track', SWIPE]);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({
      pan: '411111******1111',
      brand: 'Visa',
      name: 'DOE/JOHN',
      expiryYYMM: '2812',
      serviceCode: '101',
    });
    expect(r.stdout).not.toContain('4111111111111111');
    expect(r.stdout).not.toContain('28121010000000000000');
    const fromStdin = await tool(['track', '-'], `${SWIPE}\r`);
    expect(fromStdin.json).toEqual(r.json);
    const bad = await tool(['track', '%E?;E?']);
    expect(bad.code).toBe(1);
    expect(bad.json).toMatchObject({ error: { code: 'track-E' } });
  });

  it('tlv: the published record, card-data tags redacted and the PAN masked', async () => {
    const r = await tool(['tlv', emv.hex]);
    expect(r.code).toBe(0);
    const out = r.json as {
      count: number;
      tags: { tag: string; redacted?: boolean; maskedPan?: string; text?: string }[];
    };
    expect(out.count).toBe(emv.tlvCount);
    expect(out.tags.find((t) => t.tag === '5A')).toMatchObject({
      redacted: true,
      maskedPan: '476173******0010',
    });
    expect(out.tags.find((t) => t.tag === '57')).toMatchObject({
      redacted: true,
      maskedPan: '476173******0010',
    });
    expect(out.tags.find((t) => t.tag === '5F20')).toMatchObject({ redacted: true });
    expect(out.tags.find((t) => t.tag === '50')).toMatchObject({ text: 'VISA CREDIT' });
    expect(out.tags.find((t) => t.tag === '9F26')).toMatchObject({ redacted: true });
    expect(out.tags.find((t) => t.tag === '9F10')).toMatchObject({ redacted: true });
    expect(r.stdout).not.toContain(emv.decoded.pan);
    expect(r.stdout).not.toContain('D737017E33C78692');
    const bad = await tool(['tlv', '5A08476173']);
    expect(bad.code).toBe(1);
    expect(bad.json).toMatchObject({ error: { code: 'tlv-truncated' } });
  });

  it('lists commands, and answers unknown and reserved ones with JSON errors', async () => {
    const help = await tool(['help']);
    expect(help.json).toMatchObject({
      commands: expect.arrayContaining([expect.objectContaining({ name: 'ports' })]) as unknown,
    });
    const unknown = await tool(['frobnicate']);
    expect(unknown.code).toBe(1);
    expect(unknown.json).toMatchObject({ error: { code: 'unknown-command' } });
  });

  it('barcode: reads scanner text and recorded HID POS reports with the scanner driver’s rule', async () => {
    const text = await tool(['barcode', ']E0212345928752']);
    expect(text.json).toMatchObject({
      symbology: 'upc-a',
      validated: true,
      priceEmbedded: { itemCode: '12345', priceCents: 2875 },
    });
    const report = `020C5D4530${Buffer.from('036000241457').toString('hex')}${'00'.repeat(44)}630000`;
    const hid = await tool(['barcode', '--hid', report]);
    expect(hid.json).toMatchObject({
      aimId: ']E0',
      symbology: 'upc-a',
      data: '036000241457',
      validated: true,
    });
    const misread = await tool(['barcode', '036000241458']);
    expect(misread.json).toMatchObject({
      validated: false,
      problem: expect.stringMatching(/check digit/) as unknown,
    });
    const bad = await tool(['barcode', '--hid', '0200']);
    expect(bad.code).toBe(1);
    expect(bad.json).toMatchObject({ error: { code: 'hid-report' } });
  });
});
