/**
 * The system Chromium (Debian's package, installed by .ci/run) and the flags it needs on the build
 * machines: as root it needs --no-sandbox, and without the background-networking flags it keeps trying
 * hosts this closed network refuses. Shared by the icon renderer and every browser test.
 */
export const chromiumExecutable = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const chromiumArgs: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
