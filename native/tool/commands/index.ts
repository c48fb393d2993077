import { ToolError, type ToolCommand } from '../command';
import { dukpt } from './dukpt';
import { tlv } from './tlv';
import { track } from './track';

function reserved(summary: string): ToolCommand {
  return {
    summary,
    usage: 'not available yet',
    run() {
      throw new ToolError('not-implemented', 'this command is not available in this build yet');
    },
  };
}

/** Every toolkit command by name; `npm run tool -- <name> ...`. */
export const commands: Readonly<Record<string, ToolCommand>> = {
  tlv,
  track,
  dukpt,
  // ── ports ── reserved for the device manager: replace this entry with `ports` imported from
  // './ports' (native/tool/commands/ports.ts, a ToolCommand whose run may return a Promise).
  ports: reserved('list serial and HID ports and the card devices found on them'),
};
