import { type TlvNode, TlvError, decodeTlv, encodeTlv } from './ber-tlv';

/**
 * Issuer scripts and their results (EMV 4.4 Book 3 §10.10, Book 4 §6.3.9 and Annex A5): templates 71
 * (processed before the 2nd GENERATE AC) and 72 (after), each an optional Script Identifier 9F18 and one
 * or more Issuer Script Commands 86 (a full command APDU whose data ends in the secure-messaging MAC);
 * and the Issuer Script Results 9F5B the terminal reports, 5 bytes per script.
 */

export type ScriptTemplateTag = '71' | '72';

export type IssuerScript = {
  template: ScriptTemplateTag;
  /** 9F18, 4 bytes; absent when the issuer sent none. */
  scriptId?: Uint8Array;
  /** Each 86: CLA INS P1 P2 Lc data (ending in the MAC). */
  commands: Uint8Array[];
};

/** Book 4 §6.3.9: the scripts of one response together may not exceed 128 bytes. */
export const MAX_SCRIPTS_BYTES = 128;

export function buildIssuerScript(script: IssuerScript): TlvNode {
  const children: TlvNode[] = [];
  if (script.scriptId) children.push({ tag: '9F18', value: script.scriptId });
  for (const c of script.commands) children.push({ tag: '86', value: c });
  return { tag: script.template, value: encodeTlv(children), children };
}

export type ScriptParse = { ok: true; script: IssuerScript } | { ok: false; scriptId?: Uint8Array };

/**
 * Reads one 71/72 template. A template that does not parse, or holds something other than 9F18 and 86,
 * is a format error: Book 4 §12.2.4 says stop that script, report it "not performed", go on with the next.
 */
export function parseIssuerScript(node: TlvNode): ScriptParse {
  if (node.tag !== '71' && node.tag !== '72') return { ok: false };
  let children: TlvNode[];
  try {
    children = node.children ?? decodeTlv(node.value);
  } catch (e) {
    if (e instanceof TlvError) return { ok: false };
    throw e;
  }
  const idNode = children.find((c) => c.tag === '9F18');
  const scriptId = idNode?.value.length === 4 ? idNode.value : undefined;
  const commands = children.filter((c) => c.tag === '86').map((c) => c.value);
  const wellFormed =
    children.every((c) => c.tag === '9F18' || c.tag === '86') &&
    (idNode === undefined || idNode.value.length === 4) &&
    commands.length > 0 &&
    commands.every((c) => c.length >= 5 && c.length === 5 + (c[4] ?? 0));
  if (!wellFormed) return scriptId ? { ok: false, scriptId } : { ok: false };
  const script: IssuerScript = { template: node.tag, commands };
  if (scriptId) script.scriptId = scriptId;
  return { ok: true, script };
}

/** Annex A5 byte 1, high nibble. */
export type ScriptOutcome = 'not-performed' | 'failed' | 'successful';

export type ScriptResult = {
  outcome: ScriptOutcome;
  /** Low nibble: the sequence number (1..14, 15 = 15 or more) of the failing command; 0 = unspecified. */
  failedCommand: number;
  /** Bytes 2-5: the script identifier, zeros when the script had none. */
  scriptId: Uint8Array;
};

const OUTCOME_NIBBLE: Readonly<Record<ScriptOutcome, number>> = {
  'not-performed': 0,
  failed: 1,
  successful: 2,
};

/** 9F5B's value: 5 bytes per script, in the order the scripts were processed. */
export function encodeScriptResults(results: readonly ScriptResult[]): Uint8Array {
  const out = new Uint8Array(results.length * 5);
  results.forEach((r, i) => {
    out[i * 5] = (OUTCOME_NIBBLE[r.outcome] << 4) | Math.min(15, Math.max(0, r.failedCommand));
    out.set(r.scriptId.length === 4 ? r.scriptId : new Uint8Array(4), i * 5 + 1);
  });
  return out;
}

export function decodeScriptResults(value: Uint8Array): ScriptResult[] | undefined {
  if (value.length % 5 !== 0) return undefined;
  const out: ScriptResult[] = [];
  for (let i = 0; i < value.length; i += 5) {
    const b = value[i] ?? 0;
    const nibble = b >> 4;
    const outcome: ScriptOutcome | undefined =
      nibble === 0 ? 'not-performed' : nibble === 1 ? 'failed' : nibble === 2 ? 'successful' : undefined;
    if (!outcome) return undefined;
    out.push({ outcome, failedCommand: b & 0x0f, scriptId: value.slice(i + 1, i + 5) });
  }
  return out;
}
