/** ResponseCodes of the tender and administration groups (range 650-699). Rendered with the core catalog. */
export const tenderCodes = {} as const;

export const tenderCatalog: Record<number, { meaning: string; verbiage: string }> = {};
