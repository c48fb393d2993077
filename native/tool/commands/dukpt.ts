import {
  derivePinKeyAes,
  deriveInitialKeyAes,
  encryptAesDukptPinBlock,
  parseKsnAes,
} from '../../protocols/dukpt-aes';
import {
  deriveIpekTdes,
  derivePinKeyTdes,
  DukptError,
  encryptTdesDukptPinBlock,
  normalizeKsnTdes,
} from '../../protocols/dukpt-tdes';
import { PinBlockError } from '../../protocols/iso9564-pin-block';
import { parseCommandArgs, ToolError, type ToolCommand } from '../command';

// The published test BDKs (X9.24-1 Annex A.4; X9.24-3 test data). A production BDK must never be typed
// into a field tool: it would sit in shell history and derive every terminal's keys.
const PUBLISHED_TEST_BDKS: ReadonlySet<string> = new Set([
  '0123456789ABCDEFFEDCBA9876543210',
  'FEDCBA9876543210F1F1F1F1F1F1F1F1',
]);

const usage =
  'dukpt --bdk <hex> --ksn <hex> --pin <digits> --pan <digits> [--test-key] [--random-pad <16 hex>]  ' +
  '(KSN of 10-20 hex: TDES DUKPT, ISO 9564 format 0; 24 hex: AES DUKPT, format 4)';

function run(bdk: string, ksn: string, pin: string, pan: string, randomPad: string | undefined) {
  if (ksn.length === 24) {
    const { initialKeyId } = parseKsnAes(ksn);
    return {
      algorithm: 'AES-128 DUKPT (ANSI X9.24-3)',
      pinBlockFormat: 'ISO 9564 format 4',
      ksn: ksn.toUpperCase(),
      ipek: deriveInitialKeyAes(bdk, initialKeyId),
      pinKey: derivePinKeyAes(bdk, ksn),
      pinBlock: encryptAesDukptPinBlock({
        bdk,
        ksn,
        pin,
        pan,
        ...(randomPad === undefined ? {} : { randomPad }),
      }),
    };
  }
  if (randomPad !== undefined)
    throw new ToolError('usage', '--random-pad applies to AES DUKPT (format 4) only');
  return {
    algorithm: 'TDES DUKPT (ANSI X9.24-1)',
    pinBlockFormat: 'ISO 9564 format 0',
    ksn: normalizeKsnTdes(ksn),
    ipek: deriveIpekTdes(bdk, ksn),
    pinKey: derivePinKeyTdes(bdk, ksn),
    pinBlock: encryptTdesDukptPinBlock({ bdk, ksn, pin, pan }),
  };
}

export const dukpt: ToolCommand = {
  summary: 'derive the IPEK and PIN key and encrypt a PIN block with a published test BDK',
  usage,
  run(args) {
    const { values, positionals } = parseCommandArgs(
      args,
      { strings: ['bdk', 'ksn', 'pin', 'pan', 'random-pad'], booleans: ['test-key'] },
      usage,
    );
    const { bdk, ksn, pin, pan } = values;
    if (
      positionals.length > 0 ||
      bdk === undefined ||
      ksn === undefined ||
      pin === undefined ||
      pan === undefined
    ) {
      throw new ToolError('usage', `usage: ${usage}`);
    }
    if (!PUBLISHED_TEST_BDKS.has(bdk.toUpperCase()) && values['test-key'] !== true) {
      throw new ToolError(
        'not-a-test-key',
        'refusing a BDK that is not one of the published test keys; pass --test-key to confirm it is a test key',
      );
    }
    try {
      return run(bdk, ksn, pin, pan, values['random-pad']);
    } catch (e) {
      if (e instanceof DukptError || e instanceof PinBlockError) throw new ToolError(e.code, e.message);
      throw e;
    }
  },
};
