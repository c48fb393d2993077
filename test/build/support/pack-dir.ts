import { build, Platform } from 'electron-builder';
import config from '../../../build/electron-builder.config';

/**
 * Runs electron-builder on the real configuration up to the unpacked app (`--dir`), in a child process
 * (electron-builder installs exit hooks and logs to stdout). Only what needs the network is swapped:
 * `electronDist` is a stand-in Electron (the runtime download is unreachable) and the native rebuild is
 * off (it needs Electron's headers, and would rebuild this checkout's better-sqlite3 for Electron's ABI
 * in place). The screens come from RENDERER_DIST, the test's own build of them, because the e2e suite
 * rebuilds renderer/dist (emptying it first) whenever it runs, possibly while this packs.
 * Usage: pack-dir.ts ELECTRON_DIST OUTPUT_DIR RENDERER_DIST
 */
const [electronDist, output, rendererDist] = process.argv.slice(2);
if (!electronDist || !output || !rendererDist)
  throw new Error('usage: pack-dir.ts ELECTRON_DIST OUTPUT_DIR RENDERER_DIST');
const RENDERER_FILES = 'renderer/dist/**/*';
if (!config.files.includes(RENDERER_FILES))
  throw new Error(`the configuration no longer packages ${RENDERER_FILES}`);

await build({
  projectDir: new URL('../../..', import.meta.url).pathname,
  targets: Platform.LINUX.createTarget('dir'),
  publish: 'never',
  config: {
    ...config,
    electronDist,
    npmRebuild: false,
    files: [
      ...config.files.filter((f) => f !== RENDERER_FILES),
      { from: rendererDist, to: 'renderer/dist', filter: ['**/*'] },
    ],
    directories: { ...config.directories, output },
  },
});
