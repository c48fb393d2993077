import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { BarcodeScannerDriver } from '../../../native/drivers/barcode-scanner';
import { PoleDisplayDriver } from '../../../native/drivers/pole-display';
import type { BarcodeScan } from '../../../native/drivers/roles';
import { decryptTdesDukptPinBlock } from '../../../native/protocols/dukpt-tdes';
import { VerifoneLink } from '../../../native/protocols/verifone-link';
import { encodeMessage, parseMessage } from '../../../native/protocols/verifone-packet';
import { SANDBOX_BDK } from '../../../native/simulators/pinpad-simulator';
import { openSerialStream } from '../../../native/transports/serial-transport';
import { waitFor } from './harness';

const root = fileURLToPath(new URL('../../..', import.meta.url));

function runSim(args: string[]): {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, ['--import', 'tsx', 'native/simulators/cli.ts', ...args], {
    cwd: root,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  if (child.stdout) createInterface({ input: child.stdout }).on('line', (l) => lines.push(l));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines, stderr: () => stderr, exit };
}

describe('npm run sim', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    child = undefined;
  });

  it('pinpad --pty prints the other end; a PIN entry over it decrypts; SIGTERM cleans up', async () => {
    const sim = runSim(['pinpad', '--pty', '--pin', '2580']);
    child = sim.child;
    await waitFor(() => sim.lines.length > 0, 15_000, 'the connect line');
    const first = JSON.parse(sim.lines[0] ?? '{}') as { device?: string; connect?: string };
    expect(first.device).toBe('pinpad');
    expect(first.connect).toMatch(/\/B$/);
    const stream = await openSerialStream({
      path: first.connect ?? '',
      baudRate: 19200,
      dataBits: 8,
      parity: 'none',
      stopBits: 1,
    });
    const answers: { ksn: string; pinBlock: string }[] = [];
    const link = new VerifoneLink({
      write: (b) => void stream.write(b).catch(() => undefined),
      onPacket: (p) => {
        const m = parseMessage(p.kind, p.body);
        if (m.type === '73') answers.push(m);
      },
    });
    stream.onData((c) => link.receive(c));
    const pan = '4111111111111111';
    await link.send(
      encodeMessage({
        type: 'Z62',
        account: pan,
        minPinLength: 4,
        maxPinLength: 12,
        allowNullPin: false,
        prompt1: 'ENTER PIN',
        prompt2: '',
        processingPrompt: 'WAIT',
      }),
    );
    await waitFor(() => answers.length === 1, 5000, '73');
    const a = answers[0]!;
    expect(decryptTdesDukptPinBlock({ bdk: SANDBOX_BDK, ksn: a.ksn, pinBlock: a.pinBlock, pan })).toBe(
      '2580',
    );
    link.close();
    await stream.close();
    sim.child.kill('SIGTERM');
    expect(await sim.exit).toBe(0);
    expect(existsSync(first.connect ?? '')).toBe(false);
    const printed = sim.lines.join('\n');
    expect(printed).toContain('"type":"pin-request"');
    expect(printed).not.toContain(pan);
    expect(printed).not.toContain('2580');
  });

  it('refuses a card that is not a sandbox test card, printing it masked', async () => {
    const sim = runSim(['swipe', '--pty', '--card', '5105105105105100']);
    child = sim.child;
    expect(await sim.exit).toBe(2);
    expect(sim.stderr()).toContain('510510******5100');
    expect(sim.stderr()).not.toContain('5105105105105100');
  });

  it('refuses a fault the device cannot play', async () => {
    const sim = runSim(['printer', '--fault', 'nak-storm']);
    child = sim.child;
    expect(await sim.exit).toBe(2);
    expect(sim.stderr()).toMatch(/not available on the printer simulator/);
  });

  it('scanner --pty scans sample labels and typed codes to a driver on the other end', async () => {
    const sim = runSim(['scanner', '--pty']);
    child = sim.child;
    await waitFor(() => sim.lines.length > 0, 15_000, 'the connect line');
    const first = JSON.parse(sim.lines[0] ?? '{}') as { connect?: string };
    const stream = await openSerialStream({
      path: first.connect ?? '',
      baudRate: 9600,
      dataBits: 8,
      parity: 'none',
      stopBits: 1,
    });
    const driver = new BarcodeScannerDriver([{ kind: 'serial', stream }]);
    const scans: BarcodeScan[] = [];
    driver.onScan((s) => scans.push(s));
    sim.child.stdin?.write('label 1\nscan 96385074 ean-8\nscan 036000241458\n');
    await waitFor(() => scans.length === 3, 10_000, 'three scans');
    expect(scans.map((s) => [s.symbology, s.data, s.validated])).toEqual([
      ['upc-a', '036000241457', true],
      ['ean-8', '96385074', true],
      ['upc-a', '036000241458', false],
    ]);
    await driver.close();
    sim.child.kill('SIGTERM');
    expect(await sim.exit).toBe(0);
  });

  it('pole --pty prints the two rows a driver on the other end shows', async () => {
    const sim = runSim(['pole', '--pty']);
    child = sim.child;
    await waitFor(() => sim.lines.length > 0, 15_000, 'the connect line');
    const first = JSON.parse(sim.lines[0] ?? '{}') as { connect?: string };
    const stream = await openSerialStream({
      path: first.connect ?? '',
      baudRate: 9600,
      dataBits: 8,
      parity: 'none',
      stopBits: 1,
    });
    const driver = new PoleDisplayDriver(stream);
    await driver.showTotal({ label: 'TOTAL', cents: 4210 }, (c) => `$${(c / 100).toFixed(2)}`);
    await waitFor(() => sim.lines.some((l) => l.includes('TOTAL')), 10_000, 'the total printed');
    const last = JSON.parse(sim.lines.filter((l) => l.includes('TOTAL')).at(-1) ?? '{}') as {
      lines?: string[];
    };
    expect(last.lines).toEqual(['TOTAL         $42.10', ' '.repeat(20)]);
    await driver.close();
    sim.child.kill('SIGTERM');
    expect(await sim.exit).toBe(0);
  });
});
