import type { Configuration } from 'electron-builder';

/**
 * electron-builder configuration: the terminal as an installable app (issue 7). Build with
 * `npm run dist:linux` / `npm run dist:win` on a machine that can reach GitHub and electronjs.org (the
 * Electron runtime, Electron headers for the native rebuild, AppImage/NSIS tools come from there);
 * docs/packaging.md has the steps, signing and the update channel. test/build/ validates this file
 * against electron-builder's own schema and packages it (unpacked) with a stand-in Electron.
 *
 * What gets packaged: the esbuild bundles in dist/app (`npm run build:app`), the built screens in
 * renderer/dist, package.json, and the production dependencies electron-builder collects itself.
 */
const config = {
  appId: 'com.tillpoint.terminal',
  productName: 'Tillpoint',
  copyright: 'Copyright © 2026 Tillpoint',
  artifactName: '${productName}-${version}-${os}-${arch}.${ext}',
  directories: { buildResources: 'build', output: 'release' },
  extraMetadata: {
    // package.json's `main` is the TypeScript source for development; the app runs the bundle.
    main: 'dist/app/main.mjs',
    // Electron names the user-data folder after this (~/.config/Tillpoint, %APPDATA%\Tillpoint).
    productName: 'Tillpoint',
    author: { name: 'Tillpoint', email: 'support@tillpoint.example' },
    homepage: 'https://tillpoint.example',
  },
  files: [
    'package.json',
    'dist/app/**/*',
    'renderer/dist/**/*',
    '!**/*.map',
    // Production dependencies the bundles never load: tsx/esbuild run `npm start` from source (and
    // esbuild carries a native binary for the build machine only); React and zustand are already inside
    // renderer/dist. test/build checks every module the bundles do load is still packaged.
    '!node_modules/{tsx,esbuild,@esbuild,get-tsconfig,resolve-pkg-maps}{,/**/*}',
    '!node_modules/{react,react-dom,scheduler,zustand}{,/**/*}',
    // pg (a runtime dependency of the standalone gateway) is inlined into the bundles by esbuild
    // (electron/app-bundle.ts), so neither it nor the packages only it uses are shipped again.
    '!node_modules/{pg,pg-pool,pg-protocol,pg-types,pg-connection-string,pgpass,pg-cloudflare,pg-int8}{,/**/*}',
    '!node_modules/{postgres-array,postgres-bytea,postgres-date,postgres-interval,xtend}{,/**/*}',
  ],
  asar: true,
  asarUnpack: [
    // The journal's worker thread loads its script and better-sqlite3 with Node's own loader, which
    // cannot read inside app.asar (electron/journal/journal.ts, outsideAsar): the worker and everything
    // it requires live outside the archive.
    'dist/app/journal-worker.mjs',
    // The catalog's worker likewise, with the CSV packages its import and export load.
    'dist/app/catalog-worker.mjs',
    'node_modules/csv-parse/**/*',
    'node_modules/csv-stringify/**/*',
    'node_modules/better-sqlite3/**/*',
    'node_modules/bindings/**/*',
    'node_modules/file-uri-to-path/**/*',
    // Native addons are dlopen()ed from disk, never from an archive.
    'node_modules/@serialport/bindings-cpp/**/*',
    'node_modules/node-hid/**/*',
  ],
  // Rebuild native modules for Electron's ABI (better-sqlite3 is built against V8; serialport and
  // node-hid are N-API and keep working, but are rebuilt the same way for one code path): prebuilt
  // binaries where their projects publish them for this Electron, compiled from source otherwise.
  npmRebuild: true,
  nativeRebuilder: 'sequential',
  buildDependenciesFromSource: false,
  nodeGypRebuild: false,
  // Runtime hardening flipped into the Electron binary: no ELECTRON_RUN_AS_NODE, NODE_OPTIONS or
  // --inspect to turn the signed app into a general Node; only the packaged app.asar, integrity-checked.
  // The gateway child is an Electron utility process, which needs none of these.
  electronFuses: {
    runAsNode: false,
    enableCookieEncryption: true,
    enableNodeOptionsEnvironmentVariable: false,
    enableNodeCliInspectArguments: false,
    enableEmbeddedAsarIntegrityValidation: true,
    onlyLoadAppFromAsar: true,
    loadBrowserProcessSpecificV8Snapshot: false,
    grantFileProtocolExtraPrivileges: false,
  },
  // Update channel: electron-builder writes `stable*.yml` beside the installers and app-update.yml into
  // the app; a pre-release version (1.2.0-beta.1) goes to the `beta` channel instead. The URL is a
  // placeholder (docs/packaging.md "Updates").
  publish: [
    {
      provider: 'generic',
      url: 'https://updates.tillpoint.example/terminal/${os}/${arch}',
      channel: 'stable',
    },
  ],
  detectUpdateChannel: true,
  generateUpdatesFilesForAllChannels: false,

  linux: {
    target: [
      { target: 'AppImage', arch: ['x64'] },
      { target: 'deb', arch: ['x64'] },
    ],
    executableName: 'tillpoint',
    icon: 'build/icons',
    category: 'Office',
    synopsis: 'Point-of-sale terminal for retail counters',
    description:
      'Tillpoint runs a retail counter: card readers, PIN pads, signature pads and receipt printers, ' +
      'sales, refunds and batch close, with a write-ahead journal that never charges a sale twice.',
    maintainer: 'Tillpoint <support@tillpoint.example>',
    vendor: 'Tillpoint',
    desktop: {
      entry: {
        Name: 'Tillpoint',
        GenericName: 'Point of sale',
        Keywords: 'pos;till;checkout;payment;',
        StartupWMClass: 'Tillpoint',
      },
    },
  },
  deb: {
    // electron-builder's defaults, plus what a bare counter install lacks: ALSA and GBM for Chromium,
    // libusb for node-hid's card readers (docs/decisions.md#build-machines).
    depends: [
      'libgtk-3-0',
      'libnotify4',
      'libnss3',
      'libxss1',
      'libxtst6',
      'xdg-utils',
      'libatspi2.0-0',
      'libuuid1',
      'libsecret-1-0',
      'libasound2',
      'libgbm1',
      'libusb-1.0-0',
    ],
    priority: 'optional',
  },

  win: {
    target: [{ target: 'nsis', arch: ['x64'] }],
    icon: 'build/icon.ico',
    executableName: 'Tillpoint',
    requestedExecutionLevel: 'asInvoker',
    // Code signing: set CSC_LINK / CSC_KEY_PASSWORD (a .pfx) or azureSignOptions on the signing machine;
    // publisherName must be the certificate's subject CN, which electron-updater checks before installing
    // an update. Placeholder until the certificate exists (docs/packaging.md "Code signing").
    signtoolOptions: {
      publisherName: ['Tillpoint (placeholder publisher)'],
      signingHashAlgorithms: ['sha256'],
      rfc3161TimeStampServer: 'http://timestamp.digicert.com',
    },
  },
  nsis: {
    oneClick: false,
    // One install for every cashier account on the counter PC.
    perMachine: true,
    allowElevation: true,
    allowToChangeInstallationDirectory: true,
    installerIcon: 'build/icon.ico',
    uninstallerIcon: 'build/icon.ico',
    installerHeaderIcon: 'build/icon.ico',
    createDesktopShortcut: true,
    createStartMenuShortcut: true,
    shortcutName: 'Tillpoint',
    // The data folder holds the journal: unreconciled sales and pending reversals outlive an uninstall.
    deleteAppDataOnUninstall: false,
    runAfterFinish: true,
    artifactName: '${productName}-Setup-${version}-${arch}.${ext}',
  },
} satisfies Configuration;

// electron-builder loads a TypeScript config's default export (through jiti).
// eslint-disable-next-line import/no-default-export
export default config;
