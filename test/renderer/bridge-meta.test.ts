import { describe, expect, it } from 'vitest';
import { parseBridgeMeta } from '../../renderer/src/bridge/connect';

describe('browser-mode bridge endpoint from the page meta tag', () => {
  const page = 'http://127.0.0.1:4100/';
  it('reads JSON content', () => {
    expect(parseBridgeMeta('{"url":"ws://127.0.0.1:4100/bridge","secret":"s3"}', page)).toEqual({
      url: 'ws://127.0.0.1:4100/bridge',
      secret: 's3',
    });
    expect(parseBridgeMeta('{"secret":"s3"}', page)).toEqual({
      url: 'ws://127.0.0.1:4100/bridge',
      secret: 's3',
    });
  });
  it('reads a WebSocket URL carrying the secret', () => {
    expect(parseBridgeMeta('ws://127.0.0.1:4100/bridge?secret=abc', page)).toEqual({
      url: 'ws://127.0.0.1:4100/bridge',
      secret: 'abc',
    });
    expect(parseBridgeMeta('/bridge#xyz', page)).toEqual({
      url: 'ws://127.0.0.1:4100/bridge',
      secret: 'xyz',
    });
  });
  it('takes bare content as the secret on the page’s own host', () => {
    expect(parseBridgeMeta('  deadbeef ', page)).toEqual({
      url: 'ws://127.0.0.1:4100/bridge',
      secret: 'deadbeef',
    });
  });
  it('refuses empty or secretless content', () => {
    expect(parseBridgeMeta('', page)).toBeUndefined();
    expect(parseBridgeMeta('{"url":"ws://x"}', page)).toBeUndefined();
    expect(parseBridgeMeta('ws://127.0.0.1:4100/bridge', page)).toBeUndefined();
  });
});
