import { describe, expect, it } from 'vitest';
import {
  EMAIL_ADDRESS_PROBLEM,
  emailAddressProblem,
  emailIdentity,
  maskEmailAddress,
  normalizeEmailAddress,
} from '../../common/email-address';

describe('a customer’s email address for an emailed receipt (one rule for the screen and the core)', () => {
  it('takes ordinary addresses, trimmed, with the domain in lower case', () => {
    for (const ok of [
      'ana@example.com',
      'Ana.Lopez+receipts@Example.COM',
      "o'brien@mail.example.co.uk",
      'x@a-b.io',
      'user_1@sub.domain.example',
      'uni@müller.de', // an internationalized domain; the local part stays ASCII
    ])
      expect(emailAddressProblem(ok), ok).toBeUndefined();
    expect(normalizeEmailAddress('  Ana.Lopez@Example.COM ')).toBe('Ana.Lopez@example.com');
  });

  it('refuses what is not an address, in one sentence a cashier can read out', () => {
    for (const bad of [
      '',
      '   ',
      'ana',
      'ana@',
      '@example.com',
      'ana@example',
      'ana@@example.com',
      'ana@exa mple.com',
      'an a@example.com',
      '.ana@example.com',
      'ana.@example.com',
      'an..a@example.com',
      'ana@-example.com',
      'ana@example-.com',
      'ana@example..com',
      'ana@[127.0.0.1]',
      'ana@127.0.0.1',
      '"ana"@example.com',
      'ana@example.com, bob@example.com',
      'ana@example.com\r\nBcc: x@example.com',
      'ünï@example.com',
      `${'a'.repeat(65)}@example.com`,
      `ana@${'a'.repeat(64)}.com`,
      `ana@${Array.from({ length: 60 }, () => 'abcd').join('.')}.com`,
    ])
      expect(emailAddressProblem(bad), JSON.stringify(bad)).toBe(EMAIL_ADDRESS_PROBLEM);
  });

  it('is at most 254 characters (RFC 5321 §4.5.3.1.3), the local part at most 64 (§4.5.3.1.1)', () => {
    const local64 = 'a'.repeat(64);
    expect(emailAddressProblem(`${local64}@example.com`)).toBeUndefined();
    const domain = `${Array.from({ length: 3 }, () => 'b'.repeat(61)).join('.')}.com`;
    expect(emailAddressProblem(`${local64}@${domain}`)).toBeUndefined();
    expect(`${local64}@${domain}`.length).toBe(254);
    expect(emailAddressProblem(`${local64}@x${domain}`)).toBe(EMAIL_ADDRESS_PROBLEM);
  });

  it('masks an address for the manager’s queue and the log: first letter and the domain', () => {
    expect(maskEmailAddress('ana.lopez@example.com')).toBe('a***@example.com');
    expect(maskEmailAddress('A@Example.com')).toBe('A***@example.com');
    expect(maskEmailAddress('not an address')).toBe('***');
  });

  it('one identity per mailbox for "once per receipt and address": case and spaces do not count', () => {
    expect(emailIdentity(' Ana@Example.com')).toBe(emailIdentity('ana@example.COM'));
    expect(emailIdentity('ana@example.com')).not.toBe(emailIdentity('ana2@example.com'));
  });
});
