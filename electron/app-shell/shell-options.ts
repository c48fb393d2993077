import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { defaultCrashPolicy, type CrashPolicy } from './crash-loop';

/**
 * How the Electron main process runs, from three sources (strongest first): its command line, the
 * environment `npm start` sets for it, and `shell.json` in the data folder — the file a store's
 * provisioning drops on a counter, so kiosk mode needs no edited shortcut.
 *
 * Two ways to start: from `npm start` (TILLPOINT_GATEWAY_URL set: the launcher already runs the sandbox
 * gateway and passes the bundle's paths), or as an installed app (no launcher: the main process starts
 * the bundled gateway itself and finds the preload and screens inside the package).
 */
export type ShellOptions = {
  kiosk: boolean;
  dataDir: string;
  /** Loopback port for the screens and the bridge; 0 picks a free one. */
  port: number;
  lane: string | undefined;
  /** The launcher's gateway; undefined means the app starts its own embedded one. */
  gatewayUrl: string | undefined;
  preload: string;
  /** The built screens; undefined serves the placeholder page. */
  rendererDir: string | undefined;
  /** The bundled sandbox gateway the installed app runs as a utility process. */
  gatewayModule: string;
  crashPolicy: CrashPolicy;
  /** Problems with shell.json, reported and otherwise ignored: a typo must not keep a counter down. */
  warnings: string[];
};

export const SHELL_CONFIG_FILE = 'shell.json';

type ShellConfigFile = { kiosk?: boolean; crashLimit?: number; crashWindowMinutes?: number };

function readShellConfig(dataDir: string, warnings: string[]): ShellConfigFile {
  const file = join(dataDir, SHELL_CONFIG_FILE);
  if (!existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    warnings.push(`${file} is not valid JSON (${(error as Error).message}); ignored`);
    return {};
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    warnings.push(`${file} must hold a JSON object; ignored`);
    return {};
  }
  const raw = parsed as Record<string, unknown>;
  const out: ShellConfigFile = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'kiosk' && typeof value === 'boolean') out.kiosk = value;
    else if (key === 'crashLimit' && Number.isInteger(value) && (value as number) >= 0)
      out.crashLimit = value as number;
    else if (key === 'crashWindowMinutes' && typeof value === 'number' && value > 0)
      out.crashWindowMinutes = value;
    else warnings.push(`${file}: "${key}" is unknown or has the wrong type; ignored`);
  }
  return out;
}

function flagFromEnv(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  return value === '1' || value.toLowerCase() === 'true';
}

export function resolveShellOptions(input: {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  /** Folder of the bundled main script (preload.js, gateway.mjs sit beside it). */
  bundleDir: string;
  /** The app's root (app.getAppPath()): renderer/dist lives under it in a package. */
  appPath: string;
  /** Electron's per-user data folder (app.getPath('userData')). */
  userData: string;
}): ShellOptions {
  const { env } = input;
  // Chromium and Electron add switches of their own (--no-sandbox, --enable-logging…): read ours, ignore
  // the rest rather than refuse to start.
  const { values } = parseArgs({
    args: [...input.argv],
    options: {
      kiosk: { type: 'boolean' },
      'no-kiosk': { type: 'boolean' },
      data: { type: 'string' },
      port: { type: 'string' },
      lane: { type: 'string' },
    },
    strict: false,
    allowPositionals: true,
  });
  const str = (v: string | boolean | undefined): string | undefined =>
    typeof v === 'string' ? v : undefined;

  const warnings: string[] = [];
  const dataDir = resolve(str(values.data) ?? env.TILLPOINT_DATA ?? join(input.userData, 'terminal'));
  const file = readShellConfig(dataDir, warnings);

  const kiosk =
    values['no-kiosk'] === true
      ? false
      : values.kiosk === true
        ? true
        : (flagFromEnv(env.TILLPOINT_KIOSK) ?? file.kiosk ?? false);

  const portText = str(values.port) ?? env.TILLPOINT_PORT ?? '0';
  const port = /^\d{1,5}$/.test(portText) && Number(portText) <= 65535 ? Number(portText) : 0;
  if (port === 0 && portText !== '0') warnings.push(`port "${portText}" is not 0-65535; a free port is used`);

  const laneText = str(values.lane) ?? env.TILLPOINT_LANE;
  const lane = laneText && /^[A-Za-z0-9]{1,16}$/.test(laneText) ? laneText : undefined;
  if (laneText && !lane) warnings.push(`lane "${laneText}" is not 1 to 16 letters or digits; ignored`);
  const packagedRenderer = join(input.appPath, 'renderer', 'dist');
  const rendererDir =
    env.TILLPOINT_RENDERER !== undefined
      ? env.TILLPOINT_RENDERER || undefined
      : existsSync(join(packagedRenderer, 'index.html'))
        ? packagedRenderer
        : undefined;

  return {
    kiosk,
    dataDir,
    port,
    lane,
    gatewayUrl: env.TILLPOINT_GATEWAY_URL || undefined,
    preload: env.TILLPOINT_PRELOAD || join(input.bundleDir, 'preload.js'),
    rendererDir,
    gatewayModule: join(input.bundleDir, 'gateway.mjs'),
    crashPolicy: {
      limit: file.crashLimit ?? defaultCrashPolicy.limit,
      windowMs: file.crashWindowMinutes ? file.crashWindowMinutes * 60_000 : defaultCrashPolicy.windowMs,
    },
    warnings,
  };
}
