// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import importPlugin from 'eslint-plugin-import';
import vitest from '@vitest/eslint-plugin';

/**
 * The dependency direction (docs/decisions.md#dependency-direction), enforced here rather than promised:
 *   renderer -> common (the bridge's contract is common/bridge/);  electron -> common, native, gateway/contract;
 *   gateway -> native/protocols only;  native -> nothing of electron, renderer or gateway;
 *   common -> nothing (rules both the core and the screens apply: no Node, no DOM, no other folder).
 * Inside the gateway, the domain decides and the rest serves it: gateway/domain imports neither the sandbox
 * (which implements the domain's ports, built in app.ts) nor the routes and http that bind requests to it;
 * routes, hosted pages and schedulers reach storage only through the domain.
 */
/** electron/'s domains: what the bridge's handlers call. */
const electronDomains = [
  './electron/sale',
  './electron/batch',
  './electron/till',
  './electron/returns',
  './electron/roles',
  './electron/catalog',
  './electron/customer',
  './electron/devices',
  './electron/email',
  './electron/store-forward',
  './electron/i18n',
  './electron/merchant.ts',
  './electron/settings.ts',
  './electron/store-time-zone.ts',
];
/** Below the domains: the journal, the gateway client, util. */
const electronBase = ['./electron/journal', './electron/gateway-client', './electron/util'];

/** Where no query is built (issue 23): they reach storage only through gateway/domain. */
const outsideTheDomain = ['gateway/routes', 'gateway/hosted', 'gateway/schedulers'];

const layering = [
  {
    target: './common',
    from: ['./electron', './renderer', './native', './gateway'],
    message: 'common/ holds rules both the core and the screens apply: it imports none of the other folders.',
  },
  {
    target: './renderer',
    from: ['./native', './gateway', './electron'],
    message: "renderer/ talks to the core only through the bridge's contract, common/bridge/.",
  },
  {
    target: './native',
    from: ['./electron', './renderer', './gateway', './common'],
    message: 'native/ must not depend on electron, renderer, gateway or common.',
  },
  {
    target: './gateway',
    from: ['./electron', './renderer', './common'],
    message: 'gateway/ stands alone.',
  },
  {
    target: './gateway',
    from: './native',
    except: ['./protocols'],
    message: 'gateway/ may use only the pure codecs of native/protocols, never transports or drivers.',
  },
  {
    target: './gateway/domain',
    from: ['./gateway/sandbox', './gateway/routes', './gateway/http'],
    message:
      'gateway/domain decides: the sandbox reaches it through its ports (domain/processor-port.ts, domain/issuer-port.ts), routes and http call it, never the reverse.',
  },
  // Queries live in the domain (issue 23): a route, hosted page or scheduler that built its own SQL held a
  // rule (which rows, in what order, under which lock) where neither the domain's tests nor the next reader
  // of the domain would find it. They name storage's handles (Storage, Queryable) through domain/context.ts.
  // The wiring that opens storage (server.ts, app.ts, admin/, sandbox seeding, security/) is not a target.
  // The import zone alone lets a storage handle typed through domain/context.ts build SQL (`q.qb`), so a
  // no-restricted-syntax rule below forbids that member in the same folders.
  {
    target: outsideTheDomain.map((folder) => `./${folder}`),
    from: './gateway/storage',
    message:
      'Routes, hosted pages and schedulers reach storage through gateway/domain: put the query in a domain function (types: domain/context.ts).',
  },
  {
    target: './electron',
    from: './renderer',
    message: 'electron/ must not import the renderer.',
  },
  {
    target: './electron',
    from: './gateway',
    except: ['./contract'],
    message: 'electron/ talks to the gateway over HTTP; it may import only gateway/contract.',
  },
  // Inside electron/, arrows run down only: the shell and wiring (main, start, core/) build the bridge
  // (bridge/: dispatcher and handlers), which calls the domains (sale/, batch/, till/, returns/, roles/,
  // ...), which use the journal and the gateway client, which use util/.
  {
    target: electronDomains.concat(electronBase),
    from: [
      './electron/bridge',
      './electron/core',
      './electron/main.ts',
      './electron/start.ts',
      './electron/index.ts',
    ],
    message:
      'Inside electron/ arrows run down: a domain, the journal or util never imports the bridge or the wiring.',
  },
  {
    target: electronBase,
    from: electronDomains.filter((d) => d !== './electron/returns' && d !== './electron/till'),
    message: 'The journal, the gateway client and util sit below the domains: they never import one.',
  },
  // The journal's return and till tables apply those domains' pure rules inside their transactions (a
  // check and the write it guards in one savepoint): the rule files only, nothing else of them.
  {
    target: electronBase,
    from: './electron/returns',
    except: ['./return-rules.ts'],
    message: 'Below the domains: only returns/return-rules.ts (the pure rules the return tables apply).',
  },
  {
    target: electronBase,
    from: './electron/till',
    except: ['./till-report.ts'],
    message: 'Below the domains: only till/till-report.ts (the pure report the till tables assemble).',
  },
  {
    target: './electron/util',
    from: ['./electron/journal', './electron/gateway-client'],
    message: 'util/ is the bottom of electron/: it imports nothing of it.',
  },
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      '.tsbuild/',
      'renderer/dist/',
      'test-artifacts/',
      'dist/',
      'release/',
      '**/*.cjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: ['eslint.config.js'],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { import: importPlugin },
    settings: {
      // Cross-folder imports are extensionless relative paths (no tsconfig aliases), so Node's resolution
      // with the TypeScript extensions finds every file. A relative import it cannot follow is an error
      // below, so the layering rule is never skipped silently; packages (whose "exports" maps this
      // resolver does not read) are left to tsc, which already fails on a missing module.
      // eslint-plugin-import rather than import-x: import-x needs unrs-resolver, whose per-platform
      // binaries are not all published to the registry these machines use, and `npm ci` refuses a lock
      // file that lacks them.
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] } },
    },
    rules: {
      'import/no-restricted-paths': ['error', { zones: layering }],
      'import/no-unresolved': ['error', { ignore: ['^[^.]'] }],
      'import/no-default-export': 'error',
      // A cycle makes load order decide what is undefined at import time, and hides which module owns a rule.
      'import/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'electron', message: 'Only electron/main.ts and electron/preload.ts import electron.' },
          ],
        },
      ],
    },
  },
  {
    files: ['electron/main.ts', 'electron/preload.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    // Queries live in the domain (issue 23, with the storage zone above): no query builder here either.
    files: outsideTheDomain.map((folder) => `${folder}/**/*.ts`),
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='qb']",
          message:
            'Queries live in gateway/domain: routes, hosted pages and schedulers call a domain function instead of building SQL (qb).',
        },
      ],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer reaches the core only through the bridge.' }],
          patterns: [
            { group: ['node:*', 'fs', 'path', 'child_process'], message: 'No Node APIs in the renderer.' },
          ],
        },
      ],
    },
  },
  {
    // Both runtimes import common/: neither a Node API nor the DOM, and no package either.
    files: ['common/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\.{1,2}/)',
              message: 'common/ imports nothing but its own files (no Node API, no DOM, no package).',
            },
          ],
        },
      ],
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'navigator', 'location', 'localStorage', 'sessionStorage', 'fetch']
          .concat(['WebSocket', 'HTMLElement', 'process', 'Buffer', 'require', '__dirname', 'global'])
          .map((name) => ({ name, message: 'common/ runs in the core and the screens: no DOM, no Node.' })),
      ],
    },
  },
  {
    // The bridge's contract is shared by the core and the screens, and is checked at run time against the
    // payload schemas it declares: TypeBox, a package with no Node or DOM of its own, is the one allowed.
    files: ['common/bridge/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!\\.{1,2}/|typebox$)',
              message: 'common/bridge/ imports its own files, the rest of common/ and typebox only.',
            },
          ],
        },
      ],
    },
  },
  {
    // A test that asserts nothing, or asserts only on one branch, passes whatever the code does.
    files: ['test/**/*.ts', 'test/**/*.tsx'],
    plugins: { vitest },
    rules: {
      'vitest/expect-expect': [
        'error',
        { assertFunctionNames: ['expect', 'expect*', 'assert*', 'check*', 'verify*', 'must*', 'fc.assert'] },
      ],
      'vitest/no-conditional-expect': 'error',
      'vitest/valid-expect': ['error', { maxArgs: 2 }],
      'vitest/no-identical-title': 'error',
      'vitest/no-focused-tests': 'error',
      'vitest/no-disabled-tests': 'error',
    },
  },
  {
    files: ['*.config.ts', '*.config.js', 'renderer/vite.config.ts'],
    rules: { 'import/no-default-export': 'off' },
  },
  {
    files: ['eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
