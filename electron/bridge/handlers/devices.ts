import { DEVICE_ROLES } from '../../../common/bridge/contract';
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
        DEVICE_ROLES.map((r) => `${r}=${view[r]?.kind ?? 'none'}`).join(' '),
      );
      return view;
    },
    'devices.reconnect': (p) => devices.reconnect(p.role),
    'devices.test': (p) => devices.test(p),
    'devices.recorder.get': (p) => Promise.resolve(devices.recorder(Math.min(p.limit ?? 200, 5000))),
    async 'devices.recorder.set'(p, ctx) {
      const v = await devices.setRecorder(p.enabled);
      await settings.set('recorder', { enabled: v.enabled });
      await s.audit(who(ctx), 'frame-recorder', v.enabled ? 'on' : 'off');
      return v;
    },
  } satisfies HandlerSlice<'devices'>;
}
