import { DEVICE_ROLES } from './checks';
import { limit, role } from './checks';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

/** Devices: discovery, configuration, reconnect, tests and the frame recorder (a tech's). */
export function deviceHandlers(s: CoreServices) {
  const { settings, devices } = s;
  const { who } = createApprovals(s);
  return {
    'devices.list': () => Promise.resolve(devices.list()),
    'devices.discover': () => devices.discover(),
    'devices.config.get': () => Promise.resolve(devices.config()),
    async 'devices.config.set'(p, ctx) {
      const view = await devices.setConfig(p.config);
      await settings.set('devices', view);
      await s.audit(
        who(ctx),
        'devices-configured',
        DEVICE_ROLES.map((r) => `${r}=${view[r].kind}`).join(' '),
      );
      return view;
    },
    'devices.reconnect': (p) => devices.reconnect(role(p.role)),
    async 'devices.test'(p) {
      role(p.role);
      return devices.test(p);
    },
    'devices.recorder.get': (p) => Promise.resolve(devices.recorder(limit(p.limit, 200, 5000))),
    async 'devices.recorder.set'(p, ctx) {
      const v = await devices.setRecorder(p.enabled === true);
      await settings.set('recorder', { enabled: v.enabled });
      await s.audit(who(ctx), 'frame-recorder', v.enabled ? 'on' : 'off');
      return v;
    },
  } satisfies HandlerSlice<'devices'>;
}
