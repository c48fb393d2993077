import { ResponseCode } from '../contract/response-codes';
import { FIXED_CODE_PRIORITY } from './rules/sale-with-token-checks';

/**
 * One problem of a request. `verbiage`, where a problem has its own, replaces the code's catalog verbiage
 * in the answer when it is the answer's first problem (GetTokenForCard's Luhn failure: clients map it).
 */
export type Problem = { code: number; field: string | null; message: string; verbiage?: string };

/** Collects every problem of a request, so Msg lists them all rather than only the first. */
export class Problems {
  private readonly list: Problem[] = [];

  add(code: number, message: string, field: string | null = null, verbiage?: string): void {
    if (field !== null && this.list.some((p) => p.field === field && p.message === message)) return;
    this.list.push({ code, field, message, ...(verbiage ? { verbiage } : {}) });
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

  /** Sorted for the answer: the interface's fixed-priority codes first, then the rest as found. */
  sorted(): Problem[] {
    const rank = (p: Problem) => {
      const i = FIXED_CODE_PRIORITY.indexOf(p.code);
      return i === -1 ? FIXED_CODE_PRIORITY.length : i;
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

  /** The first problem's own verbiage, when it has one (else the answer's code gives it). */
  verbiage(): string | undefined {
    return this.sorted()[0]?.verbiage;
  }
}
