import { ResponseCode } from '../contract/response-codes';

export type Problem = { code: number; field: string | null; message: string };

/**
 * The interface's priority among the codes it fixes (SaleWithToken: 506, then 501, then 3); every other
 * code follows in the order it was found.
 */
const priority: readonly number[] = [
  ResponseCode.InvalidAmount,
  ResponseCode.InvalidTransactionType,
  ResponseCode.MissingToken,
];

/** Collects every problem of a request, so Msg lists them all rather than only the first. */
export class Problems {
  private readonly list: Problem[] = [];

  add(code: number, message: string, field: string | null = null): void {
    if (field !== null && this.list.some((p) => p.field === field && p.message === message)) return;
    this.list.push({ code, field, message });
  }

  /** Gives a field's problems an operation's own code (GetTokenForCard's card data: 25). */
  recode(field: string, code: number): void {
    for (const p of this.list) if (p.field === field) p.code = code;
  }

  has(field: string): boolean {
    return this.list.some((p) => p.field === field);
  }

  get empty(): boolean {
    return this.list.length === 0;
  }

  /** Sorted for the answer: fixed-priority codes first, then the rest as found. */
  sorted(): Problem[] {
    const rank = (p: Problem) => {
      const i = priority.indexOf(p.code);
      return i === -1 ? priority.length : i;
    };
    return this.list
      .map((p, i) => ({ p, i }))
      .sort((a, b) => rank(a.p) - rank(b.p) || a.i - b.i)
      .map((x) => x.p);
  }

  /** The ResponseCode of the whole answer: the most important problem's. */
  code(): number {
    return this.sorted()[0]?.code ?? ResponseCode.Success;
  }

  messages(): string[] {
    return this.sorted().map((p) => p.message);
  }
}
