import { describe, expect, it } from 'vitest';
import { bridgeSocketUrl, launchProof } from '../../renderer/src/bridge/connect';

describe('browser mode: where the socket is and how the window proves it was launched', () => {
  const page = 'http://127.0.0.1:4100/';
  it('reads the socket address from the page, or takes the page’s own host', () => {
    expect(bridgeSocketUrl('ws://127.0.0.1:4100/bridge', page)).toBe('ws://127.0.0.1:4100/bridge');
    expect(bridgeSocketUrl('/bridge', page)).toBe('ws://127.0.0.1:4100/bridge');
    expect(bridgeSocketUrl(undefined, page)).toBe('ws://127.0.0.1:4100/bridge');
    expect(bridgeSocketUrl('   ', page)).toBe('ws://127.0.0.1:4100/bridge');
    // A secret in an old page's meta is not carried over into the socket's address.
    expect(bridgeSocketUrl('ws://127.0.0.1:4100/bridge#s3cret', page)).toBe('ws://127.0.0.1:4100/bridge');
  });

  it('a launch token in the URL fragment first, else the page key this tab kept, else nothing', () => {
    const token = 'A'.repeat(43);
    expect(launchProof(`#launch=${token}`, null)).toEqual({ launchToken: token });
    expect(launchProof(`#launch=${token}`, 'kept')).toEqual({ launchToken: token });
    expect(launchProof('', 'kept-key')).toEqual({ pageKey: 'kept-key' });
    expect(launchProof('#other=1', 'kept-key')).toEqual({ pageKey: 'kept-key' });
    expect(launchProof('', null)).toBeUndefined();
    expect(launchProof('#launch=short', null)).toBeUndefined();
    expect(launchProof('#launch=', '')).toBeUndefined();
  });
});
