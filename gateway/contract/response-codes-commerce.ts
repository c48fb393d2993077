/** ResponseCodes of the commerce groups (range 600-649). Rendered with the core catalog. */
export const commerceCodes = {} as const;

export const commerceCatalog: Record<number, { meaning: string; verbiage: string }> = {};
