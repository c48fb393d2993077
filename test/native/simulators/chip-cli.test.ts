import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { checkChipCryptogram } from '../../../gateway/sandbox/emv-issuer';
import { ChipReaderDriver } from '../../../native/drivers/chip-reader';
import { readIssuerResponse } from '../../../native/protocols/emv-issuer-response';
import { openSerialStream } from '../../../native/transports/serial-transport';
import { waitFor } from './harness';

const root = fileURLToPath(new URL('../../..', import.meta.url));

describe('npm run sim -- chip', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    child = undefined;
  });

  it('runs the contact chip reader on a pty: the driver gets an ARQC the issuer verifies, and a TC', async () => {
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', 'native/simulators/cli.ts', 'chip', '--pty', '--card', '4000000000000424'],
      { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] },
    );
    child = proc;
    const lines: string[] = [];
    if (proc.stdout) createInterface({ input: proc.stdout }).on('line', (l) => lines.push(l));
    await waitFor(() => lines.length > 0, 30_000, 'the connect line');
    const first = JSON.parse(lines[0] ?? '{}') as { device?: string; connect?: string };
    expect(first.device).toBe('chip');
    const stream = await openSerialStream({
      path: first.connect ?? '',
      baudRate: 19200,
      dataBits: 8,
      parity: 'none',
      stopBits: 1,
    });
    const driver = new ChipReaderDriver(stream, { commandTimeoutMs: 2000, cardStepTimeoutMs: 5000 });
    // The simulator inserts its card a second after the start.
    const r = await driver.start({ amountCents: 1234, timeoutMs: 10_000 });
    if (r.kind !== 'online') throw new Error(`expected online, got ${JSON.stringify(r)}`);
    const check = checkChipCryptogram(r.emvTlvHex, '4000000000000424', {
      totalCents: 1234,
      cashbackCents: 0,
    });
    if (check.kind !== 'verified') throw new Error('not verified');
    const answer = readIssuerResponse(check.arqc.answer('00', { scripts: true }));
    if (!answer) throw new Error('no answer');
    expect(await driver.complete(answer)).toMatchObject({ kind: 'completed', decision: 'TC' });
    await waitFor(() => lines.some((l) => l.includes('"completed"')), 5000, 'the completed event');
    const events = lines.slice(1).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.find((e) => e.type === 'completed')).toMatchObject({ decision: 'TC', scripts: 2 });
    expect(lines.join('\n')).not.toContain('4000000000000424');
    await driver.close();
    proc.kill('SIGTERM');
    expect(await new Promise((resolve) => proc.once('exit', resolve))).toBe(0);
  }, 90_000);
});
