/**
 * A catalog in another language has every message of the English one, and no other: a message missing
 * (or left over) in Spanish fails to compile.
 */
export type Messages<T> = { [K in keyof T]: T[K] extends string ? string : Messages<T[K]> };
