/** Tables of the tender and administration groups (gift, EBT, check, ACH, fraud, admin, reporting). */
export type TenderTables = Record<never, never>;
