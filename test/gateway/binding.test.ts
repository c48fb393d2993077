import { afterEach, describe, expect, it } from 'vitest';
import { PaymentLinkRequest, PaymentLinksQuery } from '../../gateway/contract/payment-links';
import { CardSaleRequest } from '../../gateway/contract/card-sale';
import { bindFields, bindJson, ReservedNameError } from '../../gateway/http/binding';

/**
 * The binder on its own (gateway/http/binding.ts): what it builds has no prototype, so a field a request
 * did not send is never read from Object.prototype — not even if some other code polluted it — and a
 * reserved name is refused before anything is walked.
 */
describe('binder: prototype-less results and reserved names', () => {
  afterEach(() => {
    delete (Object.prototype as Record<string, unknown>).PollutedElsewhere;
  });

  it('builds objects without a prototype, nested ones too, from forms, queries and JSON', () => {
    const form = bindFields({ 'PaymentLink.Amount': '1.00', AppKey: 'k' }, PaymentLinkRequest);
    expect(Object.getPrototypeOf(form)).toBeNull();
    expect(Object.getPrototypeOf(form.PaymentLink)).toBeNull();
    const query = bindFields({ 'request.mid': '1001' }, PaymentLinksQuery);
    expect(Object.getPrototypeOf(query)).toBeNull();
    const json = bindJson({ PaymentLink: { Amount: '1.00' } }, PaymentLinkRequest);
    expect(Object.getPrototypeOf(json)).toBeNull();
    expect(Object.getPrototypeOf(json.PaymentLink)).toBeNull();
  });

  it('never reads an absent field from a polluted Object.prototype', () => {
    (Object.prototype as Record<string, unknown>).PollutedElsewhere = 'x';
    const bound = bindFields({ Amount: '10.00' }, CardSaleRequest);
    expect(bound.PollutedElsewhere).toBeUndefined();
    expect('PollutedElsewhere' in bound).toBe(false);
  });

  it('refuses every reserved segment, in any case and any position, and leaves Object.prototype alone', () => {
    const before = Object.getOwnPropertyNames(Object.prototype).sort();
    const names = [
      '__proto__',
      '__proto__.X',
      '__PROTO__[X]',
      'constructor.prototype.X',
      'Constructor[Prototype][X]',
      'PaymentLink.__proto__.X',
      'a.b.c.prototype',
    ];
    for (const name of names) {
      expect(() => bindFields({ [name]: '1' }, PaymentLinkRequest), name).toThrow(ReservedNameError);
      expect(() => bindFields({ [name]: ['1', '2'] }, PaymentLinksQuery), name).toThrow(ReservedNameError);
    }
    const parsed = JSON.parse('{"PaymentLink":{"constructor":{"prototype":{"X":1}}}}') as Record<
      string,
      unknown
    >;
    expect(() => bindJson(parsed, PaymentLinkRequest)).toThrow(ReservedNameError);
    expect(() =>
      bindJson(JSON.parse('{"__proto__":{"X":1}}') as Record<string, unknown>, CardSaleRequest),
    ).toThrow(ReservedNameError);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(before);
    expect(({} as Record<string, unknown>).X).toBeUndefined();
  });

  it('walks a JSON body nested thousands deep without overflowing, and finds a reserved key at the bottom', () => {
    const deep = (inner: string) =>
      JSON.parse(`{"Undeclared":${'['.repeat(20_000)}${inner}${']'.repeat(20_000)}}`) as Record<
        string,
        unknown
      >;
    const bound = bindJson(deep('1'), CardSaleRequest);
    expect(Object.getPrototypeOf(bound)).toBeNull();
    expect(Array.isArray(bound.Undeclared)).toBe(true);
    expect(() => bindJson(deep('{"constructor":1}'), CardSaleRequest)).toThrow(ReservedNameError);
  });
});
