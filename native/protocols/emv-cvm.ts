/**
 * Cardholder verification (EMV 4.4 Book 3 §10.5, Annex C3): the card's CVM list (8E) and the CVM
 * Results (9F34) the terminal reports. Only the methods this terminal performs are named; the rest are
 * "unsupported" so the kernel moves to the next rule as §10.5 says.
 */

/** CVM codes of Annex C3 Table 39 (the low six bits of a rule's first byte). */
export const CVM_CODE = {
  failProcessing: 0x00,
  plaintextPinByIcc: 0x01,
  encipheredPinOnline: 0x02,
  plaintextPinByIccAndSignature: 0x03,
  encipheredPinByIcc: 0x04,
  encipheredPinByIccAndSignature: 0x05,
  signature: 0x1e,
  noCvmRequired: 0x1f,
} as const;

/** Condition codes of Table 40 this terminal evaluates: 00 always, 03 if the terminal supports the CVM. */
export const CVM_CONDITION = { always: 0x00, ifTerminalSupports: 0x03 } as const;

export type CvmRule = {
  code: number;
  /** b7 of byte 1: apply the next rule if this one fails. */
  applyNextIfUnsuccessful: boolean;
  condition: number;
};

export type CvmList = { amountX: number; amountY: number; rules: CvmRule[] };

export function encodeCvmList(list: CvmList): Uint8Array {
  const out = new Uint8Array(8 + list.rules.length * 2);
  const dv = new DataView(out.buffer);
  dv.setUint32(0, list.amountX);
  dv.setUint32(4, list.amountY);
  list.rules.forEach((r, i) => {
    out[8 + i * 2] = (r.applyNextIfUnsuccessful ? 0x40 : 0) | (r.code & 0x3f);
    out[9 + i * 2] = r.condition;
  });
  return out;
}

/** undefined when 8E is not 8 bytes of amounts followed by whole 2-byte rules. */
export function decodeCvmList(value: Uint8Array): CvmList | undefined {
  if (value.length < 8 || value.length % 2 !== 0) return undefined;
  const dv = new DataView(value.buffer, value.byteOffset, value.byteLength);
  const rules: CvmRule[] = [];
  for (let i = 8; i < value.length; i += 2) {
    const b = value[i] ?? 0;
    rules.push({ code: b & 0x3f, applyNextIfUnsuccessful: (b & 0x40) !== 0, condition: value[i + 1] ?? 0 });
  }
  return { amountX: dv.getUint32(0), amountY: dv.getUint32(4), rules };
}

/** What the sale engine must do for the cardholder. */
export type CardholderVerification = 'online-pin' | 'signature' | 'no-cvm' | 'fail';

export type TerminalCvmSupport = { onlinePin: boolean; signature: boolean };

/**
 * The first rule whose condition is met and whose method the terminal supports (Book 3 §10.5): online
 * PIN, signature or no CVM; offline PIN methods are not supported here (the PIN pad never hands a PIN to
 * the card), so their rules are skipped when they allow it and fail the CVM when they do not. An empty
 * or exhausted list is a failure, which the card's issuer then sees in the TVR.
 */
export function selectCvm(
  list: CvmList,
  terminal: TerminalCvmSupport,
): { method: CardholderVerification; rule?: CvmRule } {
  for (const rule of list.rules) {
    if (rule.condition !== CVM_CONDITION.always && rule.condition !== CVM_CONDITION.ifTerminalSupports)
      continue;
    const supported =
      rule.code === CVM_CODE.encipheredPinOnline
        ? terminal.onlinePin
        : rule.code === CVM_CODE.signature
          ? terminal.signature
          : rule.code === CVM_CODE.noCvmRequired;
    if (supported) {
      const method: CardholderVerification =
        rule.code === CVM_CODE.encipheredPinOnline
          ? 'online-pin'
          : rule.code === CVM_CODE.signature
            ? 'signature'
            : 'no-cvm';
      return { method, rule };
    }
    if (rule.condition === CVM_CONDITION.ifTerminalSupports) continue;
    if (!rule.applyNextIfUnsuccessful) return { method: 'fail', rule };
  }
  return { method: 'fail' };
}

/**
 * 9F34 (Annex A): the rule performed and its result — 00 unknown for online PIN and signature (the
 * issuer and the merchant decide later), 02 successful for no CVM, 01 failed.
 */
export function cvmResults(selection: { method: CardholderVerification; rule?: CvmRule }): Uint8Array {
  const rule = selection.rule;
  if (selection.method === 'fail') return Uint8Array.of(0x3f, 0x00, 0x01);
  const code = (rule?.applyNextIfUnsuccessful ? 0x40 : 0) | (rule?.code ?? 0);
  return Uint8Array.of(code, rule?.condition ?? 0, selection.method === 'no-cvm' ? 0x02 : 0x00);
}
