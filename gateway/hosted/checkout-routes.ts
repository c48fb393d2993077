import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { PaymentScheduleValues, type PaymentSchedule } from '../contract/payment-links';
import { ResponseCode } from '../contract/response-codes';
import { resolveCard } from '../domain/card-input';
import { cardFingerprint } from '../security/vault-cipher';
import { payLink, refusalOf, type CheckoutOutcome } from '../domain/link-checkout';
import { merchantName as merchantNameOf } from '../domain/merchants';
import { formatCents } from '../domain/money';
import { DomainError, outcome } from '../domain/outcome';
import { findLink, parseLinkAmount } from '../domain/payment-links';
import { Problems } from '../domain/problems';
import type { GatewayServices } from '../http/services';
import { CheckoutThrottle, type CheckoutScope } from '../domain/checkout-throttle';
import { checkoutPage, noticePage } from './checkout-page';
import { securityHeaders } from './html';

type Params = { id: string };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A field of the posted form or JSON as text; numbers from JSON are accepted where the form sends text. */
function textOf(body: Record<string, unknown>, name: string): string | undefined {
  const v = body[name];
  if (typeof v === 'string') return v.trim() === '' ? undefined : v.trim();
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

function intOf(body: Record<string, unknown>, name: string): number | null {
  const t = textOf(body, name);
  return t !== undefined && /^\d{1,4}$/.test(t) ? Number(t) : null;
}

async function merchantName(services: GatewayServices, mid: number): Promise<string> {
  return (await merchantNameOf(services.storage.read, mid)) ?? 'Merchant';
}

/** What the page's script (or a form POST) gets back: never the card number, only last four. */
function pageAnswer(r: CheckoutOutcome) {
  // A payer reads this: a decline says so in plain words before the issuer's reason.
  const messages = r.approved
    ? r.sale.Msg
    : [`The payment was not approved: ${r.sale.Msg.join('; ')}. Check the details or try another card.`];
  return {
    // A decline travels as 3 with its reason: the reason is the outcome's code inside the gateway.
    ...outcome(r.sale.DeclineCode ?? r.sale.ResponseCode, messages),
    Approved: r.approved,
    Amount: formatCents(r.chargedCents),
    TotalAmount: formatCents(r.totalCents),
    AuthorizationNumber: r.approved ? (r.sale.AuthorizationNumber ?? '') : '',
    ServiceReferenceNumber: r.sale.ServiceReferenceNumber ?? '',
    CardType: r.sale.CardType ?? '',
    LastFour: r.sale.LastFour ?? '',
    PaymentSchedule: r.link.payment_schedule,
    RecurringBillingId: r.billingId,
    NextPaymentDate: r.nextPaymentDate,
  };
}

type PageAnswer = ReturnType<typeof pageAnswer> | (ReturnType<typeof outcome> & { Approved: false });

function wantsHtml(request: FastifyRequest): boolean {
  const type = (request.headers['content-type'] ?? '').toLowerCase();
  return !type.startsWith('application/json');
}

/**
 * The hosted checkout of payment links, public (the link's UUID is the capability): GET shows the page,
 * POST pays. The POST answers JSON to the page's script and a result page to a plain form post. Logs
 * carry paths only (buildGateway's serializer); no answer or message repeats what the payer typed.
 */
export function registerCheckoutRoutes(app: FastifyInstance, services: GatewayServices): void {
  const throttle = new CheckoutThrottle(services.storage);

  const send = (reply: FastifyReply, status: number, html: string, nonce: string) =>
    reply.code(status).headers(securityHeaders(nonce)).send(html);

  app.get<{ Params: Params }>('/pay/:id', { schema: { hide: true } }, async (request, reply) => {
    const nonce = randomBytes(16).toString('base64');
    const link = await findLink(services.storage.read, null, request.params.id);
    if (!link) {
      return send(
        reply,
        404,
        noticePage(nonce, {
          title: 'Payment link not found',
          message: 'This payment link does not exist. Check the address or ask the merchant for a new link.',
          tone: 'refused',
        }),
        nonce,
      );
    }
    const merchant = await merchantName(services, link.mid);
    const refused = refusalOf(link);
    if (refused) {
      const title =
        refused.code === ResponseCode.PaymentLinkPaid
          ? 'Already paid'
          : refused.code === ResponseCode.PaymentLinkDisabled
            ? 'Payment link disabled'
            : 'Payment method not offered';
      const message =
        refused.code === ResponseCode.PaymentLinkPaid
          ? 'This payment link has already been paid. Nothing more is due.'
          : refused.code === ResponseCode.PaymentLinkDisabled
            ? 'This payment link is disabled and cannot be paid. Contact the merchant.'
            : (refused.messages[0] ?? '');
      return send(reply, 200, noticePage(nonce, { title, message, merchant, tone: 'refused' }), nonce);
    }
    const action = `${services.config.basePath}/pay/${link.link_id}`;
    return send(reply, 200, checkoutPage(nonce, { link, merchant, action }), nonce);
  });

  app.post<{ Params: Params }>('/pay/:id', { schema: { hide: true } }, async (request, reply) => {
    const body = isObject(request.body) ? request.body : {};
    const now = services.clock.now().getTime();
    const linkId = request.params.id;
    // The link from this address, and the link from every address (checkout-throttle.ts's scopes).
    const pair = `${linkId}|${request.ip}`;
    const scopes: { scope: CheckoutScope; key: string }[] = [
      { scope: 'pair', key: pair },
      { scope: 'link', key: linkId },
    ];
    const tooMany = (message: string): PageAnswer => ({
      ...outcome(ResponseCode.TooManyAttempts, [message]),
      Approved: false,
    });
    let answer: PageAnswer;
    let card: string | null = null;
    if (!(await throttle.allowed('pair', pair, now)) || !(await throttle.allowed('link', linkId, now))) {
      answer = tooMany('Too many declined attempts; wait a few minutes and try again');
    } else {
      answer = await pay(services, linkId, body, async (fingerprint) => {
        card = fingerprint;
        return throttle.allowed('card', fingerprint, now);
      });
      // A made-up link charges nothing: counting it would let anyone fill the table with junk keys. A card
      // counts only what the issuer said of it (a decline), not a paid or disabled link, a bad amount.
      if (
        !answer.Approved &&
        answer.ResponseCode !== ResponseCode.NotFound &&
        answer.ResponseCode !== ResponseCode.TooManyAttempts
      )
        await throttle.failed(
          card !== null && answer.ResponseCode === ResponseCode.Declined
            ? [...scopes, { scope: 'card', key: card }]
            : scopes,
          now,
        );
    }
    if (!wantsHtml(request)) return reply.header('cache-control', 'no-store').send(answer);
    const nonce = randomBytes(16).toString('base64');
    const html = answer.Approved
      ? noticePage(nonce, {
          title: 'Payment approved',
          message: 'Thank you: your payment was approved.',
          tone: 'approved',
          details: [
            ['Amount paid', `$${'Amount' in answer ? answer.Amount : ''}`],
            ['Authorization', 'AuthorizationNumber' in answer ? answer.AuthorizationNumber : ''],
            ['Reference', 'ServiceReferenceNumber' in answer ? answer.ServiceReferenceNumber : ''],
          ],
        })
      : noticePage(nonce, {
          title: 'Payment not approved',
          message: answer.Msg.join(' '),
          tone: 'refused',
        });
    return send(reply, 200, html, nonce);
  });
}

async function pay(
  services: GatewayServices,
  linkId: string,
  body: Record<string, unknown>,
  cardAllowed: (fingerprint: string) => Promise<boolean>,
): Promise<PageAnswer> {
  const problems = new Problems();
  const amountText = textOf(body, 'Amount');
  let amountCents: number | null = null;
  if (amountText !== undefined) {
    const parsed = parseLinkAmount(amountText, services.rules.amountCeilingCents);
    if (parsed.ok) amountCents = parsed.cents;
    else problems.add(ResponseCode.InvalidAmount, `Amount ${parsed.reason}`, 'Amount');
  }
  const scheduleText = textOf(body, 'PaymentSchedule') ?? 'Single';
  const schedule: PaymentSchedule = (PaymentScheduleValues as readonly string[]).includes(scheduleText)
    ? (scheduleText as PaymentSchedule)
    : 'Single';
  // The card is read once, here, and only its resolved form travels on (to runPayment and the processor).
  if (textOf(body, 'CardNumber') === undefined) {
    problems.add(ResponseCode.CardDataMissing, 'Enter the card number', 'CardNumber');
    return { ...outcome(problems.code(), problems.messages()), Approved: false };
  }
  const card = resolveCard(
    {
      CardNumber: textOf(body, 'CardNumber'),
      ExpDate: textOf(body, 'ExpDate'),
      CVN: textOf(body, 'CVN'),
      NameOnCard: textOf(body, 'NameOnCard')?.slice(0, 64),
    },
    problems,
    { allowSlashExpiry: true },
  );
  if (!card || !problems.empty) return { ...outcome(problems.code(), problems.messages()), Approved: false };
  if (!(await cardAllowed(cardFingerprint(services.keys.fingerprintKey, card.pan))))
    return {
      ...outcome(ResponseCode.TooManyAttempts, [
        'This card was declined too many times; try another card or try again tomorrow',
      ]),
      Approved: false,
    };
  try {
    const r = await payLink(services, {
      linkId,
      amountCents,
      card,
      zip: textOf(body, 'ZipCode')?.slice(0, 16),
      street: textOf(body, 'Street')?.slice(0, 128),
      choice: {
        schedule,
        frequencyId: intOf(body, 'FrequencyId'),
        installments: intOf(body, 'InstallmentTotal'),
      },
    });
    return pageAnswer(r);
  } catch (error) {
    if (error instanceof DomainError) return { ...outcome(error.code, error.messages), Approved: false };
    throw error;
  }
}
