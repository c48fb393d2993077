import { type Vivo2Frame, Vivo2Decoder } from '../../../native/protocols/vivotech2';
import { type Link, waitFor } from './harness';

/** The host end of a ViVOpay / ID TECH Protocol 2 link: sends commands, collects decoded responses. */
export function vivo2Host(link: Link) {
  const frames: Vivo2Frame[] = [];
  const d = new Vivo2Decoder({ direction: 'response' });
  link.host.onData((c) => d.push(c, (f) => frames.push(f)));
  return {
    frames,
    send: (b: Uint8Array) => link.host.write(b),
    async next(count = frames.length + 1, ms = 3000): Promise<Vivo2Frame> {
      await waitFor(() => frames.length >= count, ms, `response #${count}`);
      return frames[count - 1] as Vivo2Frame;
    },
  };
}
