import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serialConnection } from '../../../native/devices/device-config';
import { PrinterSimulator } from '../../../native/simulators/printer-simulator';
import { ToolError } from '../../../native/tool/command';
import { ports } from '../../../native/tool/commands/ports';
import { openPtyStreams, type PtyStreams } from '../support/pty-streams';

type PortsOutput = {
  discovery: { devices: { path: string }[]; hid: { available: boolean } };
  devices?: { role: string; health: { state: string }; heartbeat?: { ok: boolean } }[];
};

describe('tool: ports', () => {
  let pty: PtyStreams | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await pty?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
    pty = undefined;
    dir = undefined;
  });

  it('lists what discovery finds, whatever this machine has', async () => {
    const out = (await ports.run([])) as PortsOutput;
    expect(Array.isArray(out.discovery.devices)).toBe(true);
    expect(typeof out.discovery.hid.available).toBe('boolean');
  });

  it('with --config, opens each device and reports its health and heartbeat', async () => {
    pty = await openPtyStreams({ baudRate: 9600 });
    new PrinterSimulator(pty.device);
    // The tool opens the host end itself; the test's own handle on it must let go first.
    await pty.host.close();
    dir = await mkdtemp(join(tmpdir(), 'tillpoint-ports-'));
    const config = join(dir, 'lane.json');
    await writeFile(
      config,
      JSON.stringify({
        receiptPrinter: serialConnection('receiptPrinter', pty.pair.b),
        pinPad: serialConnection('pinPad', join(dir, 'no-such-tty')),
      }),
    );
    const out = (await ports.run(['--config', config])) as PortsOutput;
    const byRole = Object.fromEntries((out.devices ?? []).map((d) => [d.role, d]));
    expect(byRole.receiptPrinter).toMatchObject({ health: { state: 'connected' }, heartbeat: { ok: true } });
    expect(byRole.pinPad).toMatchObject({ health: { state: 'missing' } });
    expect(out.discovery.devices.some((d) => d.path === pty!.pair.b)).toBe(true);
  });

  it('refuses an invalid configuration with the field named', async () => {
    dir = await mkdtemp(join(tmpdir(), 'tillpoint-ports-'));
    const config = join(dir, 'lane.json');
    await writeFile(
      config,
      JSON.stringify({ pinPad: { kind: 'serial', path: '/dev/ttyS0', baudRate: 19200, dataBits: 9 } }),
    );
    await expect(ports.run(['--config', config])).rejects.toThrow(ToolError);
    await expect(ports.run(['--config', config])).rejects.toThrow(/pinPad\.dataBits/);
  });
});
