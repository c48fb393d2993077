import { ESLint } from 'eslint';
import path from 'node:path';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

// The dependency direction (docs/decisions.md#dependency-direction) is enforced by the lint configuration;
// these cases prove that the rule fires on each forbidden edge (a configuration that silently stopped
// resolving would pass them all).
const root = path.resolve(import.meta.dirname, '../..');
// The probe files do not exist, so type-aware parsing is switched off for them; the layering rule
// needs only the import paths.
const eslint = new ESLint({ cwd: root, overrideConfig: [tseslint.configs.disableTypeChecked] });

async function layeringErrors(file: string, source: string): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'import/no-restricted-paths' || m.ruleId === 'import/no-unresolved')
    .map((m) => `${m.ruleId}: ${m.message}`);
}

describe('layering rule', () => {
  const forbidden: [string, string][] = [
    [
      'gateway/http/probe.ts',
      "import { openJournal } from '../../electron/journal/journal';\nvoid openJournal;\n",
    ],
    [
      'gateway/http/probe.ts',
      "import { SerialTransport } from '../../native/transports/serial-transport';\nvoid SerialTransport;\n",
    ],
    ['native/protocols/probe.ts', "import { Sale } from '../../gateway/contract/card-sale';\nvoid Sale;\n"],
    [
      'renderer/src/probe.ts',
      "import { parseTrack2 } from '../../native/protocols/iso7813-track';\nvoid parseTrack2;\n",
    ],
    [
      'electron/sale/probe.ts',
      "import { createStorage } from '../../gateway/storage/sqlite-storage';\nvoid createStorage;\n",
    ],
    // common/ is imported by the core and the screens, so it imports none of the other folders.
    ['common/probe.ts', "import { openJournal } from '../electron/journal/journal';\nvoid openJournal;\n"],
    // The renderer reaches the core through the contract in common/bridge/, never electron/.
    [
      'renderer/src/probe.ts',
      "import { createDispatch } from '../../electron/bridge/dispatcher';\nvoid createDispatch;\n",
    ],
    // Inside electron/ arrows run down: shell -> bridge -> domains -> journal, gateway client -> util.
    [
      'electron/sale/probe.ts',
      "import { createDispatch } from '../bridge/dispatcher';\nvoid createDispatch;\n",
    ],
    ['electron/journal/probe.ts', "import { SaleEngine } from '../sale/sale-engine';\nvoid SaleEngine;\n"],
    [
      'electron/journal/probe.ts',
      "import { createReturns } from '../returns/returns';\nvoid createReturns;\n",
    ],
    ['electron/util/probe.ts', "import { openJournal } from '../journal/journal';\nvoid openJournal;\n"],
    ['common/probe.ts', "import { maskPan } from '../native/protocols/pan-mask';\nvoid maskPan;\n"],
    [
      'common/probe.ts',
      "import { ResponseCode } from '../gateway/contract/response-codes';\nvoid ResponseCode;\n",
    ],
    ['common/probe.ts', "import { formatCents } from '../renderer/src/format/money';\nvoid formatCents;\n"],
    // The gateway stands alone: the terminal's shared rules are not its rules.
    ['gateway/http/probe.ts', "import { taxCents } from '../../common/percent';\nvoid taxCents;\n"],
    // The gateway's domain decides: the sandbox implements its ports, routes and http call it.
    [
      'gateway/domain/probe.ts',
      "import { createSandboxProcessor } from '../sandbox/sandbox-processor';\nvoid createSandboxProcessor;\n",
    ],
    [
      'gateway/domain/rules/probe.ts',
      "import { sandboxGiftCards } from '../../sandbox/tender-test-data';\nvoid sandboxGiftCards;\n",
    ],
    ['gateway/domain/probe.ts', "import { implement } from '../http/operation';\nvoid implement;\n"],
    [
      'gateway/domain/probe.ts',
      "import { registerTransactionRoutes } from '../routes/transactions';\nvoid registerTransactionRoutes;\n",
    ], // Queries live in the domain: routes, hosted pages and schedulers never import storage, not even a type.
    [
      'gateway/routes/probe.ts',
      "import { UniqueViolation } from '../storage/queryable';\nvoid UniqueViolation;\n",
    ],
    [
      'gateway/routes/gateway-admin/probe.ts',
      "import type { VaultTokensTable } from '../../storage/schema';\nexport type T = VaultTokensTable;\n",
    ],
    [
      'gateway/hosted/probe.ts',
      "import type { Storage } from '../storage/queryable';\nexport type S = Storage;\n",
    ],
    [
      'gateway/schedulers/probe.ts',
      "import { openSqliteDatabase } from '../storage/sqlite-storage';\nvoid openSqliteDatabase;\n",
    ],
  ];
  it.each(forbidden)(
    '%s may not import across the boundary',
    async (file, source) => {
      const errors = await layeringErrors(file, source);
      expect(errors.some((e) => e.startsWith('import/no-restricted-paths'))).toBe(true);
    },
    120_000,
  );

  it('allows the edges the dependency direction permits', async () => {
    expect(
      await layeringErrors(
        'gateway/http/probe.ts',
        "import { parseTrack2 } from '../../native/protocols/iso7813-track';\nvoid parseTrack2;\n",
      ),
    ).toEqual([]);
    expect(
      await layeringErrors(
        'electron/sale/probe.ts',
        "import { Sale } from '../../gateway/contract/card-sale';\nvoid Sale;\n",
      ),
    ).toEqual([]);
    // The domain implements the interface's rules with its contract and storage; the sandbox uses its ports.
    expect(
      await layeringErrors(
        'gateway/domain/rules/probe.ts',
        "import { ResponseCode } from '../../contract/response-codes';\nimport { prepare } from '../../storage/prepared';\nvoid ResponseCode;\nvoid prepare;\n",
      ),
    ).toEqual([]);
    // Routes name storage's handles through the domain.
    expect(
      await layeringErrors(
        'gateway/routes/probe.ts',
        "import type { Queryable } from '../domain/context';\nexport type Q = Queryable;\n",
      ),
    ).toEqual([]);
    expect(
      await layeringErrors(
        'gateway/sandbox/probe.ts',
        "import type { Processor } from '../domain/processor-port';\nexport type P = Processor;\n",
      ),
    ).toEqual([]);
    // The one rule the screen previews and the core charges lives in common/, which both may import.
    for (const file of ['renderer/src/probe.ts', 'electron/sale/probe.ts'])
      expect(
        await layeringErrors(file, "import { taxCents } from '../../common/percent';\nvoid taxCents;\n"),
        file,
      ).toEqual([]);
  }, 120_000);

  it('lets the screens and the core share the contract, and the journal apply the return rules', async () => {
    for (const [file, source] of [
      [
        'renderer/src/probe.ts',
        "import { BRIDGE_GLOBAL } from '../../common/bridge/contract';\nvoid BRIDGE_GLOBAL;\n",
      ],
      [
        'electron/sale/probe.ts',
        "import { BridgeFailure } from '../../common/bridge/failure';\nvoid BridgeFailure;\n",
      ],
      [
        'electron/journal/probe.ts',
        "import { tenderFunds } from '../returns/return-rules';\nvoid tenderFunds;\n",
      ],
      ['electron/bridge/probe.ts', "import { SaleEngine } from '../sale/sale-engine';\nvoid SaleEngine;\n"],
    ] as const)
      expect(await layeringErrors(file, source), file).toEqual([]);
  }, 120_000);

  it('lets common/bridge/ use the schema library, and no other package', async () => {
    const errors = async (file: string, source: string): Promise<string[]> => {
      const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
      return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
    };
    expect(await errors('common/bridge/probe.ts', "import { Type } from 'typebox';\nvoid Type;\n")).toEqual(
      [],
    );
    expect(await errors('common/probe.ts', "import { Type } from 'typebox';\nvoid Type;\n")).toContain(
      'no-restricted-imports',
    );
    expect(
      await errors('common/bridge/probe.ts', "import { create } from 'zustand';\nvoid create;\n"),
    ).toContain('no-restricted-imports');
  }, 120_000);

  it('keeps common/ free of the DOM, Node and packages', async () => {
    const errors = async (source: string): Promise<string[]> => {
      const [result] = await eslint.lintText(source, { filePath: path.join(root, 'common/probe.ts') });
      return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
    };
    expect(await errors('export const title = document.title;\n')).toContain('no-restricted-globals');
    expect(await errors('export const w = window.innerWidth;\n')).toContain('no-restricted-globals');
    expect(await errors('export const argv = process.argv;\n')).toContain('no-restricted-globals');
    expect(await errors("import { readFileSync } from 'node:fs';\nvoid readFileSync;\n")).toContain(
      'no-restricted-imports',
    );
    expect(await errors("import { create } from 'zustand';\nvoid create;\n")).toContain(
      'no-restricted-imports',
    );
    // Its own files and plain language are fine.
    expect(
      await errors(
        "import { taxCents } from './percent';\nexport const t = taxCents(100, 5) + Math.max(1, 2);\n",
      ),
    ).toEqual([]);
  }, 120_000);

  it('keeps query building out of routes, hosted pages and schedulers', async () => {
    const ruleIds = async (file: string, source: string): Promise<string[]> => {
      const [result] = await eslint.lintText(source, { filePath: path.join(root, file) });
      return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
    };
    // A handle reached through the domain's types still builds no SQL outside the domain.
    const probe =
      "import type { Queryable } from '../domain/context';\n" +
      "export const names = (q: Queryable) => q.all(q.qb.selectFrom('merchants').select('name'));\n";
    for (const folder of ['gateway/routes', 'gateway/hosted', 'gateway/schedulers'])
      expect(await ruleIds(`${folder}/probe.ts`, probe), folder).toContain('no-restricted-syntax');
    const [nested] = await eslint.lintText(probe.replace('../domain', '../../domain'), {
      filePath: path.join(root, 'gateway/routes/gateway-admin/probe.ts'),
    });
    expect(nested?.messages.find((m) => m.ruleId === 'no-restricted-syntax')?.message).toMatch(
      /gateway\/domain/,
    );
    // The domain is where queries live.
    expect(await ruleIds('gateway/domain/probe.ts', probe.replace('../domain/context', './context'))).toEqual(
      [],
    );
  }, 120_000);

  it('reports a relative import it cannot follow instead of skipping it', async () => {
    const errors = await layeringErrors(
      'gateway/http/probe.ts',
      "import { x } from '../../electron/nowhere';\nvoid x;\n",
    );
    expect(errors.some((e) => e.startsWith('import/no-unresolved'))).toBe(true);
  }, 120_000);
});
