import { decodeTlvHex, TlvError, type TlvNode } from '../../protocols/ber-tlv';
import { NOT_LOGGABLE_EMV_TAGS } from '../../protocols/emv-sanitize';
import { emvTagInfo } from '../../protocols/emv-tags';
import { bytesToHex } from '../../protocols/hex';
import { maskCardData, maskPan } from '../../protocols/pan-mask';
import { parseCommandArgs, ToolError, type ToolCommand } from '../command';

type TagView = {
  tag: string;
  name: string;
  length: number;
  value?: string;
  text?: string;
  redacted?: true;
  maskedPan?: string;
  children?: TagView[];
};

// The PAN leads tags 5A (cn, 'F'-padded) and 57/9F6B (track 2 layout, 'D' separator).
const LEADING_PAN = /^(\d{8,19})[DF]/;

function view(node: TlvNode): TagView {
  const info = emvTagInfo(node.tag);
  const base = { tag: node.tag, name: info?.name ?? 'unknown', length: node.value.length };
  if (node.children) return { ...base, children: node.children.map(view) };
  const hex = bytesToHex(node.value);
  if (NOT_LOGGABLE_EMV_TAGS.has(node.tag)) {
    const pan = LEADING_PAN.exec(`${hex}F`)?.[1];
    return { ...base, redacted: true, ...(pan ? { maskedPan: maskPan(pan) } : {}) };
  }
  const out: TagView = { ...base, value: hex };
  if (info && (info.format === 'a' || info.format === 'an' || info.format === 'ans')) {
    // Text fields are shown readable, and masked anyway in case a kernel put a PAN where it should not.
    out.text = maskCardData(Buffer.from(node.value).toString('latin1'));
  }
  return out;
}

const usage = 'tlv <hex>';

export const tlv: ToolCommand = {
  summary:
    'decode EMV BER-TLV hex; card-data and cryptogram tags are redacted, PANs masked first six / last four',
  usage,
  run(args) {
    const { positionals } = parseCommandArgs(args, {}, usage);
    if (positionals.length === 0) throw new ToolError('usage', `missing TLV hex; usage: ${usage}`);
    try {
      const nodes = decodeTlvHex(positionals.join(''));
      return { count: nodes.length, tags: nodes.map(view) };
    } catch (e) {
      if (e instanceof TlvError) throw new ToolError(`tlv-${e.code}`, e.message);
      throw e;
    }
  },
};
