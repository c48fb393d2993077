/** Tables of the commerce groups (payment links, recurring billing, mobile wallet, signatures). */
export type CommerceTables = Record<never, never>;
