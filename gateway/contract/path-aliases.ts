/**
 * Other paths the real service's published clients call for an operation, in one table: every route is
 * also served at its aliases (http/operation.ts registers them), hidden from /openapi.json, where each
 * operation's description lists them. A group alias maps every path under one prefix.
 */
export const pathAliases: {
  readonly groups: readonly { readonly alias: string; readonly canonical: string }[];
  readonly operations: readonly { readonly alias: string; readonly canonical: string }[];
} = {
  groups: [
    // The Gateway Admin group's older name, which PHP integrations still call (GetTokenForCard…).
    { alias: '/api/MonetraAdmin/', canonical: '/api/GatewayAdmin/' },
  ],
  operations: [
    // The pre-authorization's name before ProcessPreauth
    // (docs/decisions.md#endpoints-the-interface-leaves-unnamed).
    { alias: '/api/Transactions/PreAuthorization', canonical: '/api/Transactions/ProcessPreauth' },
  ],
};

/** The alias paths of an operation's path (none for most). */
export function aliasesOf(path: string): string[] {
  const out: string[] = [];
  for (const g of pathAliases.groups) {
    if (path.startsWith(g.canonical)) out.push(g.alias + path.slice(g.canonical.length));
  }
  for (const o of pathAliases.operations) if (o.canonical === path) out.push(o.alias);
  return out;
}
