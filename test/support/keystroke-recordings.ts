/**
 * Keydown timestamps (ms, as KeyboardEvent.timeStamp gives them) of a keyboard-wedge scanner and of
 * people typing the same label, shared by the wedge rule's unit tests and the e2e run that replays them
 * into Chromium with these very timestamps.
 */
export type RecordedKey = { key: string; at: number };

function keys(names: readonly string[], times: readonly number[]): RecordedKey[] {
  if (names.length !== times.length) throw new Error('one time per key');
  return names.map((key, i) => ({ key, at: times[i] ?? 0 }));
}

export const UPC_A_KEYS = [...'036000241457'];

/** A USB wedge scanner: a key every ~4 ms, the USB poll's rhythm. */
export const scanner = keys(
  [...UPC_A_KEYS, 'Enter'],
  [1000.0, 1004.1, 1008.0, 1012.3, 1016.0, 1019.9, 1024.2, 1028.0, 1031.8, 1036.1, 1040.0, 1044.2, 1048.0],
);

/** The same scanner on a busy host: uneven gaps of 2-16 ms and one 41 ms stall mid-code. */
export const jitteryScanner = keys(
  [...UPC_A_KEYS, 'Enter'],
  [5000.0, 5002.2, 5014.9, 5018.7, 5020.4, 5061.4, 5065.0, 5080.9, 5083.1, 5087.6, 5090.0, 5103.7, 5106.2],
);

/** A fast typist (about 110 words a minute) typing the same digits off the label, then Enter. */
export const fastTypist = keys(
  [...UPC_A_KEYS, 'Enter'],
  [9000, 9065, 9157, 9228, 9338, 9396, 9479, 9574, 9640, 9760, 9834, 9922, 10024],
);

/** A typist's quickest rolls (28-45 ms on neighbouring keys) inside an otherwise fast entry. */
export const typistWithRolls = keys([...'1200', 'Enter'], [200, 228, 273, 301, 346]);

/** A scanner that sends upper case: Shift goes down before each letter. */
export const shiftedScanner = keys(
  ['Shift', 'A', 'Shift', 'B', 'Shift', 'C', '-', '1', '2', '3', 'Enter'],
  [0, 1, 4, 5, 8, 9, 13, 17, 21, 25, 29],
);
