import { homedir } from 'node:os';
import { join } from 'node:path';

/** The user's data folder for Tillpoint (XDG on Linux, the usual places elsewhere). */
export function defaultDataRoot(): string {
  if (process.platform === 'win32')
    return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Tillpoint');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Tillpoint');
  return join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'tillpoint');
}

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export function parsePort(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65535)
    throw new UsageError(`--port must be 0-65535, not "${value}"`);
  return Number(value);
}
