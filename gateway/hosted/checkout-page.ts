import type { PaymentSchedule } from '../contract/payment-links';
import { frequencies, frequencyById } from '../domain/frequency';
import { formatCents } from '../domain/money';
import { MAX_INSTALLMENTS, MIN_INSTALLMENTS, scheduleOptions, type LinkRow } from '../domain/payment-links';
import { checkoutScript } from './checkout-script';
import { checkoutStyle } from './checkout-style';
import { escapeHtml as e, jsonForScript } from './html';

function page(title: string, nonce: string, body: string, script = ''): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<link rel="icon" href="data:,">
<title>${e(title)}</title>
<style nonce="${e(nonce)}">${checkoutStyle}</style>
</head>
<body>
<main>
${body}
</main>
${script}
</body>
</html>
`;
}

/** A page that only says something: unknown, paid or disabled link, or the answer to a plain form POST. */
export function noticePage(
  nonce: string,
  view: {
    title: string;
    message: string;
    merchant?: string;
    tone: 'approved' | 'refused';
    details?: [string, string][];
  },
): string {
  const details = view.details?.length
    ? `<dl>${view.details.map(([k, v]) => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`).join('')}</dl>`
    : '';
  return page(
    view.title,
    nonce,
    `${view.merchant ? `<p class="merchant">${e(view.merchant)}</p>` : ''}
<section class="${view.tone}" role="status" data-testid="notice">
<h2>${e(view.title)}</h2>
<p>${e(view.message)}</p>
${details}
</section>`,
  );
}

const scheduleLabels: Record<PaymentSchedule, string> = {
  Single: 'Pay in full now',
  Recurring: 'Recurring payment',
  Installment: 'Pay in installments',
};

/** What a plan does, in words; on an open schedule the payer's own choices below say how often. */
function planText(link: LinkRow, schedule: PaymentSchedule): string {
  if (link.is_open_payment_schedule === 1) {
    return schedule === 'Recurring'
      ? 'Charged now, then again at the interval you choose below.'
      : 'The first installment now, the others at the interval you choose below.';
  }
  const every = (frequencyById(link.frequency_id ?? undefined)?.name ?? '').toLowerCase();
  const until = link.end_date ? ` until ${link.end_date.slice(0, 10)}` : '';
  if (schedule === 'Recurring') return `Charged now, then ${every}${until}.`;
  const n = link.installment_total ?? 0;
  if (link.amount_cents !== null && n > 0) {
    const each = Math.floor(link.amount_cents / n);
    const first = link.amount_cents - each * (n - 1);
    return `${n} installments: $${formatCents(first)} now, then $${formatCents(each)} ${every}.`;
  }
  return `${n} installments, the first now, then ${every}.`;
}

/** The checkout form of a payable link. */
export function checkoutPage(
  nonce: string,
  view: { link: LinkRow; merchant: string; action: string },
): string {
  const { link } = view;
  const allowed = scheduleOptions[link.allowed_payment_schedule as keyof typeof scheduleOptions] ?? [
    'Single',
  ];
  const preselected = allowed.includes(link.payment_schedule as PaymentSchedule)
    ? (link.payment_schedule as PaymentSchedule)
    : (allowed[0] ?? 'Single');
  const fixed = link.amount_cents !== null;
  const title = link.description || 'Payment';
  const payerChooses = link.is_open_payment_schedule === 1;

  const amount = fixed
    ? `<p class="amount" data-testid="amount">$${e(formatCents(link.amount_cents ?? 0))}</p>`
    : `<label for="amount">Amount to pay (USD)</label>
<input id="amount" name="Amount" inputmode="decimal" autocomplete="off" placeholder="0.00" required>`;

  const choices =
    allowed.length > 1 || preselected !== 'Single'
      ? `<fieldset>
<legend>How would you like to pay?</legend>
${allowed
  .map(
    (s) =>
      `<label class="choice"><input type="radio" name="PaymentSchedule" value="${s}"${s === preselected ? ' checked' : ''}> ${e(scheduleLabels[s])}</label>`,
  )
  .join('\n')}
${allowed
  .filter((s) => s !== 'Single')
  .map(
    (s) =>
      `<p class="plan meta" data-plan="${s}"${s === preselected ? '' : ' hidden'}>${e(planText(link, s))}</p>`,
  )
  .join('\n')}
${
  payerChooses && allowed.some((s) => s !== 'Single')
    ? `<div class="plan" data-plan="Recurring Installment"${preselected === 'Single' ? ' hidden' : ''}>
<label for="frequency">How often</label>
<select id="frequency" name="FrequencyId">
${frequencies
  .map(
    (f) =>
      `<option value="${f.id}"${f.id === (link.frequency_id ?? 4) ? ' selected' : ''}>${e(f.name)}</option>`,
  )
  .join('\n')}
</select>
</div>`
    : ''
}
${
  payerChooses && allowed.includes('Installment')
    ? `<div class="plan" data-plan="Installment"${preselected === 'Installment' ? '' : ' hidden'}>
<label for="installments">Number of installments</label>
<input id="installments" name="InstallmentTotal" type="number" min="${MIN_INSTALLMENTS}" max="${MAX_INSTALLMENTS}" value="${link.installment_total ?? 3}">
</div>`
    : ''
}
</fieldset>`
      : `<input type="hidden" name="PaymentSchedule" value="Single">`;

  const data = {
    amountCents: link.amount_cents,
    installmentTotal: link.installment_total,
  };

  return page(
    `Pay ${view.merchant}`,
    nonce,
    `<p class="merchant">${e(view.merchant)}</p>
<h1>${e(title)}</h1>
${link.invoice ? `<p class="meta">Invoice ${e(link.invoice)}</p>` : ''}
<form id="checkout" method="post" action="${e(view.action)}" autocomplete="on">
${amount}
${choices}
<label for="card-number">Card number</label>
<input id="card-number" name="CardNumber" inputmode="numeric" autocomplete="cc-number" maxlength="23" required>
<div class="row">
<div><label for="exp">Expiry (MM/YY)</label>
<input id="exp" name="ExpDate" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="5" required></div>
<div><label for="cvn">Security code</label>
<input id="cvn" name="CVN" inputmode="numeric" autocomplete="cc-csc" maxlength="4"></div>
</div>
<label for="name">Name on card</label>
<input id="name" name="NameOnCard" autocomplete="cc-name" maxlength="64">
<label for="zip">ZIP code</label>
<input id="zip" name="ZipCode" autocomplete="postal-code" maxlength="10">
<p id="error" class="error" role="alert" tabindex="-1" hidden></p>
<button type="submit" id="pay">${fixed ? `Pay $${e(formatCents(link.amount_cents ?? 0))}` : 'Pay'}</button>
</form>
<section id="result" role="status" aria-live="polite" tabindex="-1" hidden></section>
<p class="secure">Card details go to the payment gateway only.${
      allowed.some((a) => a !== 'Single')
        ? ' A recurring or installment plan keeps the card, encrypted, for its later payments.'
        : ''
    }</p>`,
    `<script type="application/json" id="checkout-data">${jsonForScript(data)}</script>
<script nonce="${e(nonce)}">${checkoutScript}</script>`,
  );
}
