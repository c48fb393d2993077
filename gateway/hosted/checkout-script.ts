/**
 * The checkout's script (inline, nonce-allowed, no external assets). It only improves the form: totals on
 * the Pay button, the plan fields of the chosen schedule, and an in-page answer via fetch. The form also
 * works without it (a plain POST answered with a result page). It never logs or stores what is typed, and
 * builds the answer with textContent only.
 */
export const checkoutScript = String.raw`(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('checkout-data').textContent);
  var form = document.getElementById('checkout');
  var button = document.getElementById('pay');
  var error = document.getElementById('error');
  var result = document.getElementById('result');

  function money(cents) {
    return '$' + (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  }
  function parseAmount(text) {
    var m = /^\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(String(text || '').trim());
    if (!m) return null;
    var cents = Number(m[1].replace(/,/g, '')) * 100 + Number((m[2] || '').padEnd(2, '0'));
    return cents > 0 ? cents : null;
  }
  function field(name) { return form.elements.namedItem(name); }
  function schedule() {
    var checked = form.querySelector('input[name="PaymentSchedule"]:checked');
    return checked ? checked.value : 'Single';
  }
  function installments() {
    var input = field('InstallmentTotal');
    return input ? Number(input.value) : data.installmentTotal;
  }
  function total() { return data.amountCents !== null ? data.amountCents : parseAmount(field('Amount').value); }

  function refresh() {
    var s = schedule();
    var plans = form.querySelectorAll('[data-plan]');
    for (var i = 0; i < plans.length; i += 1) {
      plans[i].hidden = plans[i].getAttribute('data-plan').split(' ').indexOf(s) === -1;
    }
    var cents = total();
    var label = 'Pay';
    if (cents) {
      label = 'Pay ' + money(cents);
      var n = installments();
      if (s === 'Installment' && n >= 2 && n <= cents) {
        label = 'Pay ' + money(cents - Math.floor(cents / n) * (n - 1)) + ' now';
      }
    }
    button.textContent = label;
  }

  function showError(text) {
    error.textContent = text;
    error.hidden = false;
    error.focus();
  }

  function row(list, term, value) {
    var dt = document.createElement('dt');
    dt.textContent = term;
    var dd = document.createElement('dd');
    dd.textContent = value;
    list.appendChild(dt);
    list.appendChild(dd);
  }

  function showApproved(a) {
    form.reset();
    form.hidden = true;
    result.textContent = '';
    result.className = 'approved';
    var title = document.createElement('h2');
    title.textContent = 'Payment approved';
    result.appendChild(title);
    var list = document.createElement('dl');
    row(list, 'Amount paid', '$' + a.Amount);
    row(list, 'Authorization', a.AuthorizationNumber || '');
    row(list, 'Reference', a.ServiceReferenceNumber || '');
    row(list, 'Card', (a.CardType || 'Card') + ' ending ' + (a.LastFour || ''));
    if (a.NextPaymentDate) row(list, 'Next payment', a.NextPaymentDate);
    result.appendChild(list);
    result.hidden = false;
    result.focus();
  }

  form.addEventListener('change', refresh);
  form.addEventListener('input', refresh);
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    error.hidden = true;
    var body = {
      PaymentSchedule: schedule(),
      CardNumber: field('CardNumber').value,
      ExpDate: field('ExpDate').value,
      CVN: field('CVN').value,
      NameOnCard: field('NameOnCard').value,
      ZipCode: field('ZipCode').value
    };
    if (data.amountCents === null) body.Amount = field('Amount').value;
    if (field('FrequencyId')) body.FrequencyId = Number(field('FrequencyId').value);
    if (field('InstallmentTotal')) body.InstallmentTotal = Number(field('InstallmentTotal').value);
    button.disabled = true;
    fetch(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      credentials: 'omit'
    })
      .then(function (response) { return response.json(); })
      .then(function (answer) {
        if (answer.Approved) showApproved(answer);
        else {
          field('CVN').value = '';
          showError((answer.Msg && answer.Msg.length ? answer.Msg.join(' ') : 'The payment was not approved.'));
        }
      })
      .catch(function () { showError('The payment could not be sent. Check your connection and try again.'); })
      .finally(function () { button.disabled = false; });
  });
  refresh();
})();
`;
