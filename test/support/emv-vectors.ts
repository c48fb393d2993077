import { loadVector } from './vectors';

/**
 * The published EMV cryptography vectors (`test/vectors/emv/emv-cryptograms.json`), read in place. Its
 * `conventions` block defines each algorithm; the tests iterate over whatever the file holds, so a vector
 * added to it later is tested too.
 */
export type EmvVector = {
  source: string;
  algorithm: string;
  inputs: Record<string, unknown>;
  expected: Record<string, string>;
  note?: string;
};

export type EmvVectorFile = { conventions: Record<string, string>; vectors: EmvVector[] };

export const emvVectorFile = loadVector<EmvVectorFile>('emv/emv-cryptograms.json');

/**
 * The KCV length a vector's expected values use. The file mixes 2- and 3-byte KCVs (its `kcv`
 * convention) but never within one vector; the toolkit prints 2 bytes unless told `kcvLength`.
 */
export function kcvLengthOf(v: EmvVector): number | undefined {
  const lengths = new Set(
    Object.entries(v.expected)
      .filter(([k]) => k.endsWith('Kcv'))
      .map(([, x]) => x.length / 2),
  );
  if (lengths.size > 1) throw new Error(`vector from ${v.source} mixes KCV lengths`);
  return [...lengths][0];
}

/** The vector's inputs, plus `kcvLength` when its KCVs are not the default 2 bytes. */
export function inputsOf(v: EmvVector): Record<string, unknown> {
  const kcv = kcvLengthOf(v);
  return kcv !== undefined && kcv !== 2 ? { ...v.inputs, kcvLength: kcv } : { ...v.inputs };
}
