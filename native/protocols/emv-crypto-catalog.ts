import { arpcMethod1, arpcMethod2 } from './emv-arpc';
import { generateApplicationCryptogram } from './emv-cryptogram';
import {
  type AcDataTail,
  type AcTransactionData,
  type CryptogramVersion,
  type MasterKeys,
  CRYPTOGRAM_VERSIONS,
  acDataTailFromIad,
  acSessionKey,
  applicationCryptogram,
  arpcKeyFor,
  authorisationResponseCryptogram,
  cryptogramVersion,
  deriveIccMasterKeys,
  pinChangeCommand,
  scriptCommandMac,
  secureMessagingSessionKey,
} from './emv-cryptogram-versions';
import { generateCvc3 } from './emv-cvc3';
import { buildIssuerScript } from './emv-issuer-script';
import {
  type IccMasterKeyOption,
  atcUnDiversification,
  deriveCommonSessionKey,
  deriveEmv2000TreeSessionKey,
  deriveIccMasterKey,
  deriveVisaSecureMessagingKey,
  keyCheckValue,
} from './emv-keys';
import {
  type CommandEncryption,
  encryptCommandData,
  pinBlockIso9564Format2,
  secureMessagingMac,
  visPinBlock,
} from './emv-secure-messaging';
import { encodeTlv } from './ber-tlv';
import { bytesToHex } from './hex';
import { macIso9797Alg3 } from './iso9797-mac';

/**
 * The EMV cryptography of this folder under the names of the published vectors file
 * (`test/vectors/emv/emv-cryptograms.json`, whose `conventions` block defines each algorithm): one entry
 * per `algorithm`, taking that file's `inputs` and returning its `expected` names, binary values in
 * upper-case hex. The field toolkit (`npm run tool -- emv`) and the vector tests both call it, so what a
 * tech computes is what the vectors check.
 *
 * Input rules: hex is even-length hex of the stated size; `pan`, `panSequenceNumber`, `pin`,
 * `currentPin` are decimal digit strings; a `null` input means "not given" (pyemv's default applies);
 * names a vector carries only as description (`paddingArgument`, `case`, `note`) are accepted and
 * ignored. Key check values are printed 2 bytes long (pyemv's default) unless `kcvLength` says 3.
 * Errors name the input, never its value: the values are keys and card numbers.
 */

export type EmvCatalogErrorCode = 'unknown-algorithm' | 'missing-input' | 'bad-input';

export class EmvCatalogError extends Error {
  override readonly name = 'EmvCatalogError';
  readonly code: EmvCatalogErrorCode;
  constructor(code: EmvCatalogErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

export type EmvInputs = Readonly<Record<string, unknown>>;
export type EmvOutputs = Record<string, string>;

type Reader = {
  hex(name: string, bytes?: number | readonly number[]): Uint8Array;
  optHex(name: string, bytes?: number | readonly number[]): Uint8Array | undefined;
  digits(name: string, min: number, max: number): string;
  optDigits(name: string, min: number, max: number): string | undefined;
  int(name: string, allowed?: readonly number[], fallback?: number): number;
  choice<T extends string>(name: string, options: Readonly<Record<string, T>>, fallback?: T): T;
  optString(name: string): string | undefined;
  tags(name: string): Readonly<Record<string, Uint8Array>>;
  kcv(key: Uint8Array): string;
  used: Set<string>;
};

function reader(inputs: EmvInputs): Reader {
  const used = new Set<string>();
  const get = (name: string): unknown => {
    used.add(name);
    return inputs[name];
  };
  const absent = (v: unknown): boolean => v === undefined || v === null;
  const sizeText = (bytes: number | readonly number[]): string =>
    typeof bytes === 'number' ? `${bytes}` : bytes.join(' or ');
  const parseHex = (name: string, v: unknown, bytes?: number | readonly number[]): Uint8Array => {
    if (typeof v !== 'string' || !/^(?:[0-9A-Fa-f]{2})*$/.test(v))
      throw new EmvCatalogError('bad-input', `input '${name}' must be even-length hexadecimal`);
    const out = Uint8Array.from(Buffer.from(v, 'hex'));
    if (bytes !== undefined && !(typeof bytes === 'number' ? [bytes] : bytes).includes(out.length))
      throw new EmvCatalogError('bad-input', `input '${name}' must be ${sizeText(bytes)} bytes of hex`);
    return out;
  };
  const parseDigits = (name: string, v: unknown, min: number, max: number): string => {
    if (typeof v !== 'string' || !/^\d+$/.test(v) || v.length < min || v.length > max)
      throw new EmvCatalogError(
        'bad-input',
        `input '${name}' must be ${min === max ? `${min}` : `${min} to ${max}`} decimal digits`,
      );
    return v;
  };
  const r: Reader = {
    used,
    hex(name, bytes) {
      const v = get(name);
      if (absent(v)) throw new EmvCatalogError('missing-input', `missing input '${name}'`);
      return parseHex(name, v, bytes);
    },
    optHex(name, bytes) {
      const v = get(name);
      return absent(v) ? undefined : parseHex(name, v, bytes);
    },
    digits(name, min, max) {
      const v = get(name);
      if (absent(v)) throw new EmvCatalogError('missing-input', `missing input '${name}'`);
      return parseDigits(name, v, min, max);
    },
    optDigits(name, min, max) {
      const v = get(name);
      return absent(v) ? undefined : parseDigits(name, v, min, max);
    },
    int(name, allowed, fallback) {
      const v = get(name);
      if (absent(v)) {
        if (fallback !== undefined) return fallback;
        throw new EmvCatalogError('missing-input', `missing input '${name}'`);
      }
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
      if (!Number.isInteger(n) || (allowed !== undefined && !allowed.includes(n)))
        throw new EmvCatalogError(
          'bad-input',
          `input '${name}' must be ${allowed ? `one of ${allowed.join(', ')}` : 'a whole number'}`,
        );
      return n;
    },
    choice(name, options, fallback) {
      const v = get(name);
      if (absent(v)) {
        if (fallback !== undefined) return fallback;
        throw new EmvCatalogError('missing-input', `missing input '${name}'`);
      }
      const key = typeof v === 'string' ? v.trim().toLowerCase() : undefined;
      const found = key === undefined ? undefined : options[key];
      if (found === undefined)
        throw new EmvCatalogError(
          'bad-input',
          `input '${name}' must be one of: ${Object.keys(options).join(', ')}`,
        );
      return found;
    },
    optString(name) {
      const v = get(name);
      if (absent(v)) return undefined;
      if (typeof v !== 'string') throw new EmvCatalogError('bad-input', `input '${name}' must be a string`);
      return v;
    },
    tags(name) {
      const v = get(name);
      if (absent(v)) throw new EmvCatalogError('missing-input', `missing input '${name}'`);
      if (typeof v !== 'object' || Array.isArray(v))
        throw new EmvCatalogError('bad-input', `input '${name}' must be an object of tag: hex`);
      const out: Record<string, Uint8Array> = {};
      for (const [tag, value] of Object.entries(v as Record<string, unknown>)) {
        if (!/^(?:[0-9A-Fa-f]{2}){1,3}$/.test(tag))
          throw new EmvCatalogError('bad-input', `input '${name}' has a key that is not an EMV tag`);
        out[tag.toUpperCase()] = parseHex(`${name}.${tag.toUpperCase()}`, value);
      }
      return out;
    },
    kcv(key) {
      return bytesToHex(keyCheckValue(key, kcvLength));
    },
  };
  const kcvLength = r.int('kcvLength', [2, 3], 2);
  return r;
}

const PAN = (r: Reader): string => r.digits('pan', 8, 19);
const PSN = (r: Reader): string => r.optDigits('panSequenceNumber', 2, 2) ?? '00';
const KEY16 = 16;

const DERIVATION: Readonly<Record<string, IccMasterKeyOption>> = {
  'option-a': 'A',
  'option-b': 'B',
  a: 'A',
  b: 'B',
};

const ENCRYPTION: Readonly<Record<string, CommandEncryption>> = {
  emv: 'emv',
  mastercard: 'mastercard',
  visa: 'visa',
};

type PinBlockFormat = 'vis' | 'iso9564-2';
const PIN_BLOCK_FORMAT: Readonly<Record<string, PinBlockFormat>> = {
  vis: 'vis',
  'iso 9564-1 format 2': 'iso9564-2',
  'iso9564-2': 'iso9564-2',
  'iso 9564 format 2': 'iso9564-2',
};

function hex(b: Uint8Array): string {
  return bytesToHex(b);
}

// ---------------------------------------------------------------------------------------------------
// Algorithms

type Algorithm = { summary: string; run(r: Reader): EmvOutputs };

function iccMk(option: IccMasterKeyOption, withKey: boolean): Algorithm {
  return {
    summary: `ICC master key, EMV Book 2 A1.4 Option ${option}${withKey ? '' : ' (its KCV only)'}`,
    run(r) {
      const key = deriveIccMasterKey(option, r.hex('issuerMasterKey', KEY16), PAN(r), PSN(r));
      const out: EmvOutputs = { iccMasterKeyKcv: r.kcv(key) };
      if (withKey) out.iccMasterKey = hex(key);
      return out;
    },
  };
}

/** The session key a chain asks for: common (R given), EMV2000 tree, Visa SM, Mastercard SKD, or none. */
function chainSessionKey(r: Reader, master: Uint8Array): Uint8Array {
  const method = r.choice(
    'sessionKeyDerivation',
    {
      common: 'common',
      'emv2000-tree': 'tree',
      'visa-sm': 'visa',
      mastercard: 'mastercard',
      none: 'none',
    } as const,
    'common',
  );
  switch (method) {
    case 'common':
      return deriveCommonSessionKey(master, r.hex('diversificationValue', 8));
    case 'tree': {
      const iv = r.optHex('iv', 16);
      return deriveEmv2000TreeSessionKey(master, r.hex('atc', 2), {
        height: r.int('height', undefined, 8),
        branchFactor: r.int('branchFactor', undefined, 4),
        ...(iv ? { iv } : {}),
      });
    }
    case 'visa':
      return deriveVisaSecureMessagingKey(master, r.hex('atc', 2));
    case 'mastercard':
      return deriveCommonSessionKey(
        master,
        atcUnDiversification(r.hex('atc', 2), r.hex('unpredictableNumber', 4)),
      );
    case 'none':
      return master;
  }
}

function pinBlockFor(r: Reader, format: PinBlockFormat, iccAc: () => Uint8Array): Uint8Array {
  const pin = r.digits('pin', 4, 12);
  const current = r.optDigits('currentPin', 4, 12);
  if (format === 'vis') return visPinBlock(iccAc(), pin, current);
  if (current !== undefined)
    throw new EmvCatalogError('bad-input', "input 'currentPin' needs a VIS PIN block");
  return pinBlockIso9564Format2(pin);
}

/** MAC data from a layout such as "command header || encrypted command data". */
function macData(r: Reader, layout: string, encrypted: Uint8Array | undefined): Uint8Array {
  const parts = layout
    .split('||')
    .map((p) => p.trim().toLowerCase())
    .filter((p) => p !== '');
  const bytes: Uint8Array[] = [];
  for (const p of parts.length > 0 ? parts : ['command header']) {
    const part = p.replace(/\s+only$/, '');
    if (part === 'command header') bytes.push(r.hex('commandHeader'));
    else if (part === 'encrypted command data') {
      if (!encrypted)
        throw new EmvCatalogError('missing-input', "the MAC layout needs 'pin' to build the command data");
      bytes.push(encrypted);
    } else if (part === 'command data') bytes.push(r.hex('commandData'));
    else if (part === 'atc') bytes.push(r.hex('atc', 2));
    else if (part === 'arqc') bytes.push(r.hex('arqc', 8));
    else throw new EmvCatalogError('bad-input', "input 'macDataLayout' names a part this tool does not know");
  }
  return Uint8Array.from(Buffer.concat(bytes));
}

function smScriptChain(r: Reader): EmvOutputs {
  const option = r.choice('iccMasterKeyDerivation', DERIVATION, 'A');
  const pan = PAN(r);
  const psn = PSN(r);
  const out: EmvOutputs = {};
  const issuer = (name: 'Ac' | 'Smi' | 'Smc'): Uint8Array | undefined =>
    r.optHex(`issuerMasterKey${name}`, KEY16);
  const icc: Partial<Record<'Ac' | 'Smi' | 'Smc', Uint8Array>> = {};
  for (const name of ['Ac', 'Smc', 'Smi'] as const) {
    const k = issuer(name);
    if (!k) continue;
    out[`issuerMasterKey${name}Kcv`] = r.kcv(k);
    icc[name] = deriveIccMasterKey(option, k, pan, psn);
    out[`iccMasterKey${name}Kcv`] = r.kcv(icc[name]);
  }
  if (!icc.Smi) throw new EmvCatalogError('missing-input', "missing input 'issuerMasterKeySmi'");
  const skSmi = chainSessionKey(r, icc.Smi);
  let encrypted: Uint8Array | undefined;
  if (icc.Smc) {
    const skSmc = chainSessionKey(r, icc.Smc);
    out.sessionKeySmcKcv = r.kcv(skSmc);
    if (r.optDigits('pin', 4, 12) !== undefined) {
      const format = r.choice('pinBlockFormat', PIN_BLOCK_FORMAT, 'iso9564-2');
      const block = pinBlockFor(r, format, () => {
        if (!icc.Ac) throw new EmvCatalogError('missing-input', "a VIS PIN block needs 'issuerMasterKeyAc'");
        return icc.Ac;
      });
      out.pinBlock = hex(block);
      encrypted = encryptCommandData(skSmc, block, r.choice('encryptionType', ENCRYPTION, 'emv'));
      out.encryptedCommandData = hex(encrypted);
    }
  }
  out.sessionKeySmiKcv = r.kcv(skSmi);
  const layout =
    r.optString('macDataLayout') ??
    (encrypted ? 'command header || encrypted command data' : 'command header');
  out.mac = hex(secureMessagingMac(skSmi, macData(r, layout, encrypted)));
  return out;
}

const TABLE_26_TAGS = ['9F02', '9F03', '9F1A', '95', '5F2A', '9A', '9C', '9F37', '82', '9F36'] as const;

function cvnChain(scheme: CryptogramVersion['scheme']): Algorithm {
  const known = Object.values(CRYPTOGRAM_VERSIONS)
    .filter((v) => v.scheme === scheme)
    .map((v) => v.cvn);
  return {
    summary: `${scheme} cryptogram version chain (CVN ${known.join('/')}): keys, ARQC, ARPC, script MAC, PIN change`,
    run(r) {
      const cvn = r.int('cvn');
      const v = cryptogramVersion(scheme, cvn);
      if (!v)
        throw new EmvCatalogError(
          'bad-input',
          `input 'cvn' must be one of ${known.join(', ')} for ${scheme}`,
        );
      const issuer: MasterKeys = {
        ac: r.hex('issuerMasterKeyAc', KEY16),
        smi: r.hex('issuerMasterKeySmi', KEY16),
        smc: r.hex('issuerMasterKeySmc', KEY16),
      };
      const icc = deriveIccMasterKeys(v, issuer, PAN(r), PSN(r));
      const tags = r.tags('tags');
      const ac = {} as Record<(typeof TABLE_26_TAGS)[number], Uint8Array>;
      for (const t of TABLE_26_TAGS) {
        const value = tags[t];
        if (!value) throw new EmvCatalogError('missing-input', `missing input 'tags.${t}'`);
        ac[t] = value;
      }
      const acTags: AcTransactionData = ac;
      const iad = tags['9F10'];
      let tail: AcDataTail;
      if (v.acDataTail === 'iad') {
        if (!iad)
          throw new EmvCatalogError('missing-input', `missing input 'tags.9F10' (CVN ${cvn} MACs it)`);
        tail = { iad };
      } else {
        const fromIad = iad ? acDataTailFromIad(v, iad) : {};
        const cvr = r.optHex('cvr') ?? fromIad.cvr;
        if (!cvr) throw new EmvCatalogError('missing-input', "missing input 'cvr'");
        tail = { cvr };
        if (v.acDataTail === 'cvr-counters') {
          const counters = r.optHex('counters') ?? fromIad.counters;
          if (!counters) throw new EmvCatalogError('missing-input', "missing input 'counters'");
          tail.counters = counters;
        }
      }
      const atc = acTags['9F36'];
      const un = acTags['9F37'];
      const out: EmvOutputs = {
        issuerMasterKeyAcKcv: r.kcv(issuer.ac),
        issuerMasterKeySmiKcv: r.kcv(issuer.smi),
        issuerMasterKeySmcKcv: r.kcv(issuer.smc),
        iccMasterKeyAcKcv: r.kcv(icc.ac),
        iccMasterKeySmiKcv: r.kcv(icc.smi),
        iccMasterKeySmcKcv: r.kcv(icc.smc),
        sessionKeyAcKcv: r.kcv(acSessionKey(v, icc.ac, atc, un)),
      };
      const arqc = applicationCryptogram(v, icc.ac, acTags, tail);
      out.arqc = hex(arqc);
      out.arpcKeyKcv = r.kcv(arpcKeyFor(v, icc.ac, atc, un));
      const arc = r.optHex('arc', 2);
      const csu = r.optHex('csu', 4);
      const prop = r.optHex('proprietaryAuthData', [0, 1, 2, 3, 4, 5, 6, 7, 8]);
      if (v.arpcMethod === 1 && !arc)
        throw new EmvCatalogError('missing-input', `missing input 'arc' (CVN ${cvn} uses ARPC method 1)`);
      if (v.arpcMethod === 2 && !csu)
        throw new EmvCatalogError('missing-input', `missing input 'csu' (CVN ${cvn} uses ARPC method 2)`);
      out.arpc = hex(
        authorisationResponseCryptogram(v, icc.ac, {
          arqc,
          atc,
          unpredictableNumber: un,
          ...(arc ? { arc } : {}),
          ...(csu ? { csu } : {}),
          ...(prop ? { proprietaryAuthData: prop } : {}),
        }),
      );
      out.sessionKeySmiKcv = r.kcv(secureMessagingSessionKey(v, icc.smi, atc, arqc));
      out.sessionKeySmcKcv = r.kcv(secureMessagingSessionKey(v, icc.smc, atc, arqc));
      const header = r.optHex('commandHeader', 5);
      if (header) {
        const mac = scriptCommandMac(v, icc.smi, header, atc, arqc);
        out.commandMac = hex(mac);
        const command = Uint8Array.from(Buffer.concat([header, mac]));
        out.issuerScriptTemplate72Unblock = hex(
          encodeTlv([
            buildIssuerScript({ template: '72', scriptId: new Uint8Array(4), commands: [command] }),
          ]),
        );
      }
      const pin = r.optDigits('pin', 4, 12);
      if (pin !== undefined) {
        const command = pinChangeCommand(v, icc, { pin, atc, arqc });
        out.pinChangeCommand = hex(command);
        // The command as the issuer sends it: template 72 (after the 2nd GENERATE AC), script id zero.
        out.issuerScriptTemplate72PinChange = hex(
          encodeTlv([
            buildIssuerScript({ template: '72', scriptId: new Uint8Array(4), commands: [command] }),
          ]),
        );
        const currentPin = r.optDigits('currentPin', 4, 12);
        if (currentPin !== undefined && v.currentPinChange)
          out.pinChangeCommandWithCurrentPin = hex(pinChangeCommand(v, icc, { pin, currentPin, atc, arqc }));
      }
      return out;
    },
  };
}

const ALGORITHMS: Readonly<Record<string, Algorithm>> = {
  'key-check-value': {
    summary: 'key check value: leftmost `length` bytes of the key encrypting 8 zero bytes',
    run: (r) => ({
      kcv: hex(keyCheckValue(r.hex('key', [8, 16, 24]), r.int('length', [1, 2, 3, 4, 5, 6, 7, 8], 2))),
    }),
  },
  'icc-mk-option-a': iccMk('A', true),
  'icc-mk-option-b': iccMk('B', true),
  'icc-mk-option-a-kcv': iccMk('A', false),
  'icc-mk-option-b-kcv': iccMk('B', false),
  'session-key-common': {
    summary: 'common session key derivation (Book 2 A1.3.1) from an ICC master key and R',
    run(r) {
      const sk = deriveCommonSessionKey(r.hex('iccMasterKey', KEY16), r.hex('diversificationValue', 8));
      return { sessionKey: hex(sk), sessionKeyKcv: r.kcv(sk) };
    },
  },
  'session-key-emv2000-tree': {
    summary: 'EMV2000 tree session key (EMV 4.1 Book 2 A1.3) for an ATC',
    run(r) {
      const iv = r.optHex('iv', 16);
      const sk = deriveEmv2000TreeSessionKey(r.hex('iccMasterKey', KEY16), r.hex('atc', 2), {
        height: r.int('height', undefined, 8),
        branchFactor: r.int('branchFactor', undefined, 4),
        ...(iv ? { iv } : {}),
      });
      return { sessionKey: hex(sk), sessionKeyKcv: r.kcv(sk) };
    },
  },
  'session-key-visa-sm': {
    summary: 'Visa secure-messaging session key from an ICC master key and the ATC',
    run(r) {
      const sk = deriveVisaSecureMessagingKey(r.hex('iccMasterKey', KEY16), r.hex('atc', 2));
      return { sessionKey: hex(sk), sessionKeyKcv: r.kcv(sk) };
    },
  },
  'ac-generate': {
    summary: 'application cryptogram: ISO/IEC 9797-1 MAC algorithm 3 under the session key, padding 1 or 2',
    run: (r) => ({
      arqc: hex(
        generateApplicationCryptogram(
          r.hex('sessionKey', KEY16),
          r.hex('data'),
          r.int('padding', [1, 2], 2) as 1 | 2,
          r.int('length', [4, 5, 6, 7, 8], 8),
        ),
      ),
    }),
  },
  'arpc-method-1': {
    summary: 'ARPC method 1: TDES(key)[ARQC xor ARC || 000000000000]',
    run: (r) => ({ arpc: hex(arpcMethod1(r.hex('sessionKey', KEY16), r.hex('arqc', 8), r.hex('arc', 2))) }),
  },
  'arpc-method-2': {
    summary: 'ARPC method 2: 4-byte MAC over ARQC || CSU || proprietary authentication data',
    run: (r) => {
      const prop = r.optHex('proprietaryAuthData', [0, 1, 2, 3, 4, 5, 6, 7, 8]);
      return { arpc: hex(arpcMethod2(r.hex('sessionKey', KEY16), r.hex('arqc', 8), r.hex('csu', 4), prop)) };
    },
  },
  'arqc-arpc-chain': {
    summary: 'issuer key -> ICC master key -> session key -> ARQC -> ARPC, with the KCV of each key',
    run(r) {
      const issuerKey = r.hex('issuerMasterKey', KEY16);
      const option = r.choice('iccMasterKeyDerivation', DERIVATION);
      const icc = deriveIccMasterKey(option, issuerKey, PAN(r), PSN(r));
      const sk = chainSessionKey(r, icc);
      const arqc = generateApplicationCryptogram(sk, r.hex('data'), r.int('padding', [1, 2], 2) as 1 | 2);
      const arpcKey =
        r.choice('arpcKey', { iccmasterkey: 'icc', sessionkey: 'session' } as const, 'session') === 'icc'
          ? icc
          : sk;
      const method = r.int('arpcMethod', [1, 2]);
      const arpc =
        method === 1
          ? arpcMethod1(arpcKey, arqc, r.hex('arc', 2))
          : arpcMethod2(
              arpcKey,
              arqc,
              r.hex('csu', 4),
              r.optHex('proprietaryAuthData', [0, 1, 2, 3, 4, 5, 6, 7, 8]),
            );
      return {
        issuerMasterKeyKcv: r.kcv(issuerKey),
        iccMasterKeyKcv: r.kcv(icc),
        sessionKeyKcv: r.kcv(sk),
        arqc: hex(arqc),
        arpc: hex(arpc),
      };
    },
  },
  cvc3: {
    summary: 'Mastercard dynamic CVC3 from the issuer CVC3 key, track template, ATC and UN',
    run(r) {
      const option = r.choice('iccMasterKeyDerivation', DERIVATION, 'A');
      const key = deriveIccMasterKey(option, r.hex('issuerCvc3Key', KEY16), PAN(r), PSN(r));
      const kind = (r.optString('trackTemplateKind') ?? 'track2').trim().toLowerCase();
      const template = kind.startsWith('track1')
        ? Uint8Array.from(Buffer.from(r.optString('trackTemplate') ?? '', 'latin1'))
        : r.hex('trackTemplate');
      if (template.length === 0) throw new EmvCatalogError('missing-input', "missing input 'trackTemplate'");
      return {
        iccCvc3KeyKcv: r.kcv(key),
        cvc3: generateCvc3(key, template, r.hex('atc', 2), r.hex('unpredictableNumber', 4)),
      };
    },
  },
  'sm-command-mac': {
    summary: 'issuer-script command MAC: MAC algorithm 3, padding 2, under the SM integrity session key',
    run: (r) => ({
      mac: hex(
        secureMessagingMac(
          r.hex('sessionKeySmi', KEY16),
          r.hex('macData'),
          r.int('length', [4, 5, 6, 7, 8], 8),
        ),
      ),
    }),
  },
  'sm-encrypt-command-data': {
    summary: 'issuer-script command data encipherment (EMV, Mastercard or Visa padding and mode)',
    run(r) {
      const key = r.hex('sessionKeySmc', KEY16);
      const given = r.optHex('commandData');
      const data =
        given ??
        pinBlockFor(r, r.choice('pinBlockFormat', PIN_BLOCK_FORMAT, 'iso9564-2'), () =>
          r.hex('iccMasterKeyAc', KEY16),
        );
      return {
        encryptedCommandData: hex(
          encryptCommandData(key, data, r.choice('encryptionType', ENCRYPTION, 'emv')),
        ),
      };
    },
  },
  'pin-block-vis': {
    summary: 'VIS PIN block of a Visa PIN change (optionally with the current PIN)',
    run: (r) => ({ pinBlock: hex(pinBlockFor(r, 'vis', () => r.hex('iccMasterKeyAc', KEY16))) }),
  },
  'pin-block-iso9564-2': {
    summary: 'ISO 9564-1 format 2 PIN block (offline PIN change)',
    run: (r) => ({ pinBlock: hex(pinBlockIso9564Format2(r.digits('pin', 4, 12))) }),
  },
  'sm-script-chain': {
    summary: 'issuer keys -> ICC keys -> SM session keys -> enciphered PIN block and script MAC, with KCVs',
    run: smScriptChain,
  },
  'cvn-visa': cvnChain('visa'),
  'cvn-mastercard': cvnChain('mastercard'),
  'cvn-interac': cvnChain('interac'),
  'mac-iso9797-3': {
    summary: 'ISO/IEC 9797-1 MAC algorithm 3 with two independent DES keys',
    run: (r) => ({
      mac: hex(
        macIso9797Alg3(
          r.hex('key1', 8),
          r.hex('key2', 8),
          r.hex('data'),
          r.int('padding', [1, 2], 2) as 1 | 2,
          r.int('length', [4, 5, 6, 7, 8], 8),
        ),
      ),
    }),
  },
};

/** Every algorithm name, as the vectors file spells them (plus `mac-iso9797-3`). */
export const EMV_ALGORITHMS: readonly string[] = Object.keys(ALGORITHMS);

export function emvAlgorithmSummary(name: string): string | undefined {
  return ALGORITHMS[name]?.summary;
}

// Names the vectors carry only as description; accepted and not reported as unknown.
const DESCRIPTIVE = new Set(['paddingArgument', 'case', 'note', 'source', 'trackTemplateKind']);

export type EmvComputation = { outputs: EmvOutputs; ignoredInputs: string[] };

/**
 * Runs `algorithm` on `inputs`. Throws EmvCatalogError for an unknown algorithm, a missing input or a
 * malformed one; any other failure of the primitives (a key of the wrong length they caught first) is
 * turned into `bad-input` with the primitive's own message, which never holds a value.
 */
export function computeEmv(algorithm: string, inputs: EmvInputs): EmvComputation {
  const a = Object.prototype.hasOwnProperty.call(ALGORITHMS, algorithm) ? ALGORITHMS[algorithm] : undefined;
  if (!a)
    throw new EmvCatalogError('unknown-algorithm', `unknown algorithm; one of: ${EMV_ALGORITHMS.join(', ')}`);
  if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs))
    throw new EmvCatalogError('bad-input', 'inputs must be a JSON object');
  const r = reader(inputs);
  let outputs: EmvOutputs;
  try {
    outputs = a.run(r);
  } catch (e) {
    if (e instanceof EmvCatalogError) throw e;
    if (e instanceof RangeError) throw new EmvCatalogError('bad-input', e.message);
    throw e;
  }
  const ignoredInputs = Object.keys(inputs).filter((k) => !r.used.has(k) && !DESCRIPTIVE.has(k));
  return { outputs, ignoredInputs };
}
