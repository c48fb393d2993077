import { chmodSync, closeSync, mkdirSync, openSync, statSync } from 'node:fs';

/**
 * The data folder and what it holds are the owner's alone: the journal (employees, PIN digests, settings
 * with the sealed gateway password, store-and-forward ciphertext) and the key that unlocks them must not be
 * readable by another account on the machine. Created owner-only; found wider (an older install, a copy,
 * a restore), narrowed back rather than refused — the terminal must still sell.
 *
 * Windows has no POSIX modes (its ACLs follow the user's profile folder); there these do nothing.
 */

const posix = process.platform !== 'win32';

/** Creates the folder 0700 if missing; narrows an existing one that group or others could enter. */
export function ownerOnlyDir(path: string): void {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  if (posix && (statSync(path).mode & 0o077) !== 0) chmodSync(path, 0o700);
}

/**
 * Makes sure the file exists and is 0600 before a library opens it with its own default mode (SQLite
 * creates files 0644 less the umask, and creates its -wal and -shm with the database file's mode, so the
 * database file's mode decides all three). Existing companions are narrowed too.
 */
export function ownerOnlyFile(path: string, companions: readonly string[] = []): void {
  closeSync(openSync(path, 'a', 0o600));
  for (const p of [path, ...companions]) {
    if (!posix) continue;
    const st = statSync(p, { throwIfNoEntry: false });
    if (st && (st.mode & 0o077) !== 0) chmodSync(p, 0o600);
  }
}
