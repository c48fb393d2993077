import { describe, expect, it } from 'vitest';
import type { ReceiptView } from '../../../common/bridge/contract';
import { renderReceiptEmail } from '../../../electron/email/receipt-email';
import { smtpFailure } from '../../../electron/email/smtp-failure';

/** The email's two parts from a receipt view, and what a failed SMTP attempt means (pure). */

const receipt: ReceiptView = {
  ticketId: 'T-1',
  copy: 'customer',
  lines: [
    { kind: 'text', text: 'A & B <Deli>', align: 'center', bold: true, large: true },
    { kind: 'rule' },
    { kind: 'pair', left: 'TOTAL', right: '12.50', bold: true },
    { kind: 'text', text: 'Visa ****1111' },
    { kind: 'qr', data: 'tillpoint:receipt:T-1:12.50' },
  ],
  qrData: 'tillpoint:receipt:T-1:12.50',
  text: 'A & B <Deli>\n------\nTOTAL 12.50\nVisa ****1111',
};

describe('a receipt as an email', () => {
  it('the text part is the printer’s text; the HTML part its lines, escaped; the QR stays at the counter', () => {
    const email = renderReceiptEmail({ receipt, storeName: 'A & B <Deli>' });
    expect(email.subject).toBe('Your receipt from A & B <Deli>');
    expect(email.text).toBe(
      [
        'Thank you for shopping at A & B <Deli>.',
        '',
        receipt.text,
        '',
        'You received this email because you asked for your receipt at our counter.',
        '',
      ].join('\n'),
    );
    expect(email.html).toContain('A &amp; B &lt;Deli&gt;');
    expect(email.html).not.toContain('<Deli>');
    expect(email.html).toContain('>TOTAL</td>');
    expect(email.html).toContain('Visa ****1111');
    expect(email.html).not.toContain('tillpoint:receipt');
  });
});

describe('what a failed SMTP attempt means (errors as nodemailer 10 reports them)', () => {
  const where = { host: 'mail.example.com', port: 587, address: 'Bad.Box@example.com' };

  it('only a refused recipient or message is permanent; settings and network problems are retried', () => {
    const rcpt = smtpFailure(
      {
        code: 'EENVELOPE',
        command: 'RCPT TO',
        responseCode: 550,
        permanent: true,
        response: '550 5.1.1 <bad.box@example.com>: Recipient address rejected',
      },
      where,
    );
    expect(rcpt).toEqual({
      permanent: true,
      aborted: false,
      reason: 'The mail server refused the address: 550 5.1.1 <B***@example.com>: Recipient address rejected',
    });
    expect(
      smtpFailure(
        {
          code: 'EENVELOPE',
          command: 'RCPT TO',
          responseCode: 451,
          permanent: false,
          response: '451 Try later',
        },
        where,
      ).permanent,
    ).toBe(false);
    expect(
      smtpFailure(
        {
          code: 'EMESSAGE',
          command: 'DATA',
          responseCode: 554,
          permanent: true,
          response: '554 Message rejected as spam',
        },
        where,
      ),
    ).toMatchObject({
      permanent: true,
      reason: 'The mail server refused the email: 554 Message rejected as spam',
    });
    const auth = smtpFailure(
      {
        code: 'EAUTH',
        command: 'AUTH PLAIN',
        responseCode: 535,
        permanent: true,
        response: '535 Invalid username or password',
      },
      where,
    );
    expect(auth).toMatchObject({
      permanent: false,
      reason:
        'The mail server refused the user name or password (535 Invalid username or password). Check them in Settings.',
    });
    expect(
      smtpFailure(
        {
          code: 'EENVELOPE',
          command: 'MAIL FROM',
          responseCode: 553,
          permanent: true,
          response: '553 Sender not allowed',
        },
        where,
      ).permanent,
    ).toBe(false);
  });

  it('network and TLS problems in words that say what to check', () => {
    const words = (e: object) => smtpFailure(e, where).reason;
    expect(
      words({
        code: 'ESOCKET',
        command: 'CONN',
        originalCode: 'ECONNREFUSED',
        message: 'connect ECONNREFUSED 127.0.0.1:1',
      }),
    ).toBe(
      'Could not reach the mail server at mail.example.com:587: the connection was refused. Check the server and the port, and that it is running.',
    );
    expect(words({ code: 'EDNS', command: 'CONN', originalCode: 'ENOTFOUND' })).toMatch(
      /^The mail server mail\.example\.com was not found/,
    );
    expect(words({ code: 'ETIMEDOUT', command: 'CONN', message: 'Greeting never received' })).toBe(
      'The mail server at mail.example.com:587 did not answer in time.',
    );
    expect(
      words({
        code: 'ETLS',
        command: 'STARTTLS',
        responseCode: 500,
        response: '500 Error: command not recognized',
      }),
    ).toMatch(/does not offer STARTTLS/);
    expect(
      words({
        code: 'ESOCKET',
        command: 'CONN',
        originalCode: 'ERR_SSL_WRONG_VERSION_NUMBER',
        message: 'wrong version number',
      }),
    ).toMatch(/did not answer with TLS on port 587/);
    expect(
      words({
        code: 'ESOCKET',
        command: 'CONN',
        message: 'self-signed certificate',
        originalCode: 'DEPTH_ZERO_SELF_SIGNED_CERT',
      }),
    ).toMatch(/certificate is not trusted \(self-signed certificate\)/);
    expect(
      words({
        code: 'ESOCKET',
        command: 'CONN',
        originalCode: 'ERR_TLS_CERT_ALTNAME_INVALID',
        message: "Hostname/IP does not match certificate's altnames",
      }),
    ).toBe('The mail server’s certificate is not for mail.example.com. Check the server name in Settings.');
    expect(smtpFailure({ code: 'EABORT' }, where)).toMatchObject({ aborted: true, permanent: false });
    expect(words(new Error('something odd'))).toBe('The mail server said: something odd');
  });
});
