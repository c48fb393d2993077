import { build, Platform } from 'electron-builder';
import config from '../../../build/electron-builder.config';

/**
 * Runs electron-builder on the real configuration up to the unpacked app (`--dir`), in a child process
 * (electron-builder installs exit hooks and logs to stdout). Only what needs the network is swapped:
 * `electronDist` is a stand-in Electron (the runtime download is unreachable) and the native rebuild is
 * off (it needs Electron's headers, and would rebuild this checkout's better-sqlite3 for Electron's ABI
 * in place). Usage: pack-dir.ts ELECTRON_DIST OUTPUT_DIR
 */
const [electronDist, output] = process.argv.slice(2);
if (!electronDist || !output) throw new Error('usage: pack-dir.ts ELECTRON_DIST OUTPUT_DIR');

await build({
  projectDir: new URL('../../..', import.meta.url).pathname,
  targets: Platform.LINUX.createTarget('dir'),
  publish: 'never',
  config: {
    ...config,
    electronDist,
    npmRebuild: false,
    directories: { ...config.directories, output },
  },
});
