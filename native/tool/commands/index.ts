import type { ToolCommand } from '../command';
import { barcode } from './barcode';
import { ports } from './ports';
import { dukpt } from './dukpt';
import { emv } from './emv';
import { tlv } from './tlv';
import { track } from './track';

/** Every toolkit command by name; `npm run tool -- <name> ...`. */
export const commands: Readonly<Record<string, ToolCommand>> = {
  tlv,
  track,
  dukpt,
  emv,
  ports,
  barcode,
};
