import { useEffect, useState } from 'react';
import type { TillStatusView } from '../../../common/bridge/contract';
import { useApp, useBridge } from './context';

/**
 * The lane's drawer as the cashier may see it (`till.status`: the till in the drawer and the tills waiting
 * for a count; never an expected figure), kept current by `till.changed`. Null until it is read, or when
 * the signed-in role does not sell (a tech).
 */
export function useTillStatus(): TillStatusView | null {
  const bridge = useBridge();
  const role = useApp((s) => s.session?.role);
  const [status, setStatus] = useState<TillStatusView | null>(null);
  useEffect(() => {
    if (role !== 'cashier' && role !== 'manager') {
      setStatus(null);
      return;
    }
    let live = true;
    const off = bridge.on('till.changed', (s) => setStatus(s));
    void bridge.send('till.status', {}).then((r) => {
      if (live && r.ok) setStatus(r.value);
    });
    return () => {
      live = false;
      off();
    };
  }, [bridge, role]);
  return status;
}
