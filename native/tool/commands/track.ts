import { readFileSync } from 'node:fs';
import { detectBrand } from '../../protocols/card-brand';
import { parseSwipe, type TrackErrorCode } from '../../protocols/iso7813-track';
import { isLuhnValid } from '../../protocols/luhn';
import { maskPan } from '../../protocols/pan-mask';
import { parseCommandArgs, ToolError, type ToolCommand } from '../command';

const usage = "track '<swipe string>'  (or `track -` to read it from stdin, keeping it out of shell history)";

const MESSAGES: Record<TrackErrorCode, string> = {
  E: 'the reader reported a read error for every track (MagTek E)',
  format: 'not ISO 7813 track 1 / track 2 data',
  empty: 'no track data',
  mismatch: 'track 1 and track 2 disagree on PAN or expiry',
};

export const track: ToolCommand = {
  summary: 'parse a card swipe (ISO 7813 track 1 and/or 2); PAN masked, discretionary data withheld',
  usage,
  run(args) {
    const { positionals } = parseCommandArgs(args, {}, usage);
    const [arg] = positionals;
    if (arg === undefined || positionals.length > 1) throw new ToolError('usage', `usage: ${usage}`);
    const raw = arg === '-' ? readFileSync(0, 'latin1') : arg;
    const r = parseSwipe(raw);
    if (!r.ok) throw new ToolError(`track-${r.error}`, MESSAGES[r.error]);
    const { pan, name, expiryYYMM, serviceCode, track1, track2 } = r.value;
    // Discretionary data holds the CVV/PVV (sensitive authentication data): only its length is shown.
    return {
      pan: maskPan(pan),
      brand: detectBrand(pan),
      luhnValid: isLuhnValid(pan),
      ...(name === undefined ? {} : { name }),
      expiryYYMM,
      serviceCode,
      tracks: {
        track1: track1 ? { discretionaryLength: track1.discretionary.length } : null,
        track2: track2 ? { discretionaryLength: track2.discretionary.length } : null,
      },
    };
  },
};
