/**
 * The pseudo-locale's catalogs: every English message wrapped in ⟦…⟧ (its placeholders kept), so a
 * screen shown in it marks every word that came from a catalog, and any other word stands out.
 */
export const PSEUDO_OPEN = '⟦';
export const PSEUDO_CLOSE = '⟧';

type Tree = { [key: string]: string | Tree };

export function pseudoCatalog<T extends Tree>(catalog: T): T {
  const out: Tree = {};
  for (const [key, value] of Object.entries(catalog))
    out[key] = typeof value === 'string' ? `${PSEUDO_OPEN}${value}${PSEUDO_CLOSE}` : pseudoCatalog(value);
  return out as T;
}
