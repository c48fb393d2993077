import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The user's data folder for Tillpoint (XDG on Linux, the usual places elsewhere) — the same folder the
 * gateway's CLI uses; duplicated because electron/ may not import gateway code beyond its contract.
 */
export function defaultDataRoot(): string {
  if (process.platform === 'win32')
    return join(process.env.APPDATA ?? join(homedir(), 'AppData', 'Roaming'), 'Tillpoint');
  if (process.platform === 'darwin') return join(homedir(), 'Library', 'Application Support', 'Tillpoint');
  return join(process.env.XDG_DATA_HOME ?? join(homedir(), '.local', 'share'), 'tillpoint');
}
