import type { GatewaySettingsView } from '../contract';
import { gatewayAddressProblem } from '../../../common/gateway-address';
import { BridgeFailure } from '../failure';
import { str } from './checks';
import { createApprovals } from './approvals';
import type { CoreServices, HandlerSlice } from './services';

/** The gateway connection (a tech's settings; PCI DSS 4.2.1 on its address). */
export function gatewayHandlers(s: CoreServices) {
  const { settings, client } = s;
  const { who } = createApprovals(s);
  const gatewayView = (): GatewaySettingsView => {
    const g = settings.value.gateway;
    return {
      baseUrl: g.baseUrl,
      mid: g.mid,
      cid: g.cid,
      userName: g.userName,
      appKey: g.appKey,
      appType: g.appType,
      passwordSet: settings.gatewayPassword().length > 0,
      timeouts: { ...g.timeouts },
      embeddedSandbox: g.mode === 'embedded',
    };
  };

  return {
    'gateway.get': () => Promise.resolve(gatewayView()),
    async 'gateway.update'(p, ctx) {
      const g = { ...settings.value.gateway, timeouts: { ...settings.value.gateway.timeouts } };
      if (p.baseUrl !== undefined) {
        let url: URL;
        try {
          url = new URL(str(p.baseUrl, 'baseUrl', 2048));
        } catch {
          throw new BridgeFailure(
            'invalid',
            'The gateway address must be a URL such as https://gateway.example.com.',
          );
        }
        // PCI DSS 4.2.1: https, or plain http to this machine only (the rule the Gateway screen applies too).
        const problem = gatewayAddressProblem(url.protocol, url.hostname);
        if (problem) throw new BridgeFailure('invalid', problem);
        g.baseUrl = url.toString().replace(/\/$/, '');
        g.mode = 'remote';
      }
      if (p.mid !== undefined) g.mid = p.mid;
      if (p.cid !== undefined) g.cid = p.cid;
      if (p.appType !== undefined) g.appType = p.appType;
      for (const n of [g.mid, g.cid, g.appType])
        if (!Number.isInteger(n) || n < 0)
          throw new BridgeFailure('invalid', 'mid, cid and appType are whole numbers.');
      if (p.userName !== undefined) g.userName = str(p.userName, 'userName', 128);
      if (p.appKey !== undefined) g.appKey = str(p.appKey, 'appKey', 128);
      if (p.password !== undefined) {
        g.sealedPassword = settings.sealPassword(str(p.password, 'password', 256));
        g.mode = 'remote';
      }
      if (p.timeouts) {
        for (const [k, v] of Object.entries(p.timeouts)) {
          if (k !== 'saleMs' && k !== 'otherMs') continue;
          if (typeof v !== 'number' || !Number.isInteger(v) || v < 500 || v > 120_000)
            throw new BridgeFailure('invalid', 'Timeouts are 500 to 120000 ms.');
          g.timeouts[k] = v;
        }
      }
      await settings.set('gateway', g);
      client.reconfigure({ baseUrl: g.baseUrl, credentials: settings.credentials(), timeouts: g.timeouts });
      await s.audit(
        who(ctx),
        'gateway-settings',
        `gateway ${g.baseUrl} merchant ${g.mid}/${g.cid}${p.password !== undefined ? ' (password changed)' : ''}`,
      );
      return gatewayView();
    },
    'gateway.test': () => s.testGateway(),
  } satisfies HandlerSlice<'gateway'>;
}
