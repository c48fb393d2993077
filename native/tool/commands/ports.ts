import { readFileSync } from 'node:fs';
import { deviceRoles, validateLaneDeviceConfig } from '../../devices/device-config';
import { createDeviceManager, type DeviceStatus } from '../../devices/device-manager';
import { discoverDevices } from '../../devices/discovery';
import { parseCommandArgs, ToolError, type ToolCommand } from '../command';

const usage = 'ports [--config <lane-devices.json>]';

/**
 * What the device manager sees on this machine: serial ports and HID devices with a role guess, and with
 * `--config`, each configured device opened, heartbeated where its protocol allows, and its health.
 * Never fails for lack of udev, libusb or devices: those are reported, not thrown.
 */
export const ports: ToolCommand = {
  summary: 'list serial and HID ports, guess which card device is on each, and (with --config) their health',
  usage,
  async run(args) {
    const { values, positionals } = parseCommandArgs(args, { strings: ['config'] }, usage);
    if (positionals.length > 0) throw new ToolError('usage', `usage: ${usage}`);
    if (values.config === undefined) {
      return { discovery: await discoverDevices() };
    }
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(values.config, 'utf8'));
    } catch (e) {
      throw new ToolError(
        'config',
        `cannot read the configuration: ${e instanceof Error ? e.message : 'error'}`,
      );
    }
    const v = validateLaneDeviceConfig(raw);
    if (!v.ok) throw new ToolError('config', v.errors.join('; '));
    const manager = createDeviceManager({ config: v.value, rediscoveryMs: 0, heartbeatMs: 0 });
    try {
      await manager.start();
      // One heartbeat each, so "connected" means "answered" where the protocol can tell.
      const beats = await Promise.all(
        deviceRoles.map(async (role) =>
          manager.statusOf(role).health.state === 'connected'
            ? [role, await manager.runTest({ role, action: 'heartbeat' })]
            : [role, undefined],
        ),
      );
      const devices: (DeviceStatus & { heartbeat?: unknown })[] = manager.status().map((s) => {
        const beat = beats.find(([r]) => r === s.role)?.[1];
        return beat === undefined ? s : { ...s, heartbeat: beat };
      });
      return { discovery: await manager.discover(), devices };
    } finally {
      await manager.stop();
    }
  },
};
