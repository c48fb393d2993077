import type { GatewaySettingsView } from '../../../common/bridge/contract';
import { gatewayAddressProblem } from '../../../common/gateway-address';
import { BridgeFailure } from '../../../common/bridge/failure';
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
          url = new URL(p.baseUrl);
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
      if (p.userName !== undefined) g.userName = p.userName;
      if (p.appKey !== undefined) g.appKey = p.appKey;
      if (p.password !== undefined) {
        g.sealedPassword = settings.sealPassword(p.password);
        g.mode = 'remote';
      }
      if (p.timeouts?.saleMs !== undefined) g.timeouts.saleMs = p.timeouts.saleMs;
      if (p.timeouts?.otherMs !== undefined) g.timeouts.otherMs = p.timeouts.otherMs;
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
