import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { DeclineCode, declineCatalog } from '../contract/decline-codes';
import { ResponseCode, responseCatalog } from '../contract/response-codes';

const escape = (text: string) => text.replace(/\|/g, '\\|');

/** docs/response-codes.md, rendered from the catalog so the page never drifts from the code. */
export function renderResponseCodes(): string {
  const names = new Map<number, string[]>();
  for (const [name, code] of Object.entries(ResponseCode))
    names.set(code, [...(names.get(code) ?? []), name]);
  const rows = Object.entries(responseCatalog)
    .map(([code, entry]) => ({ code: Number(code), ...entry }))
    .sort((a, b) => a.code - b.code)
    .map(
      (e) => `| ${e.code} | ${(names.get(e.code) ?? []).join(', ')} | ${e.verbiage} | ${escape(e.meaning)} |`,
    );
  const declines = Object.entries(DeclineCode)
    .sort((a, b) => a[1] - b[1])
    .map(
      ([name, code]) =>
        `| ${code} | ${name} | ${declineCatalog[code].verbiage} | ${escape(declineCatalog[code].meaning)} |`,
    );
  return [
    '# Gateway ResponseCode catalog',
    '',
    'Generated from `gateway/contract/response-codes*.ts` and `gateway/contract/decline-codes.ts` by',
    '`npm run docs:codes`; a test fails when this page is stale.',
    '',
    'A request that reaches an endpoint is answered with HTTP 200 and its outcome here; transport faults',
    '(400, 404, 405, 408, 413, 414, 415, 431, 500, 503) also carry their HTTP status. The numbers follow the real',
    "service's catalog wherever it names the condition (its published clients map them, and one treats any",
    'other number as "unhandled, retry may help"); the interface fixes 200, 506, 501, 3, 404 and 300; every',
    'other condition has its own number, and a number never changes meaning. A decline is always 3 with',
    "its reason's verbiage (`EXPIRED CARD`, `DO NOT HONOR`…; never a word containing APPROV, which a",
    'published client reads as approval) and its reason in `DeclineCode` (second table).',
    '',
    "What the binder accepts before these codes are decided (the real service's binder does the same, and",
    'its published clients rely on it): JSON as `application/json`, `text/json` or `+json` in any charset',
    'we can decode (else 415), or a form; property names in any case, nested objects too; numbers and',
    'booleans as text (`"25.00"`, `"1001"`, `"True"`) where they are declared; an empty string for an',
    'optional field as absent; `TrackData` as `Track2`, `Account`/`cv` as `CardNumber`/`CVN` on sales;',
    'paths in any case, and `/testing/api/...` as `/api/...` in the sandbox. Amount text must be plainly',
    '`12.34` (`"10.001"`, `"1e3"`, `" 10"` are 506), and SaleWithToken\'s `Amount`, `SurchargeAmount` and',
    '`TransactionType` must be JSON numbers in JSON (506, 501), as the interface fixes. No body at all: 13.',
    'Payment Links GET takes its query names with or without the `request.` prefix (the prefixed one wins).',
    'A field name with a `__proto__`, `constructor` or `prototype` segment refuses the request: 400.',
    '',
    '| Code | Name | verbiage | Meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
    '## DeclineCode: why a payment was declined',
    '',
    "Sent with ResponseCode 3 and the reason's verbiage (clients that map verbiage to their own errors",
    'read it); `Msg` says the same in words. No verbiage of a decline contains APPROV. The numbers are the',
    "ResponseCodes these reasons had before the catalog followed the real service's, so stored payments",
    'keep their reason.',
    '',
    '| DeclineCode | Name | verbiage | Meaning |',
    '|---|---|---|---|',
    ...declines,
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(new URL('../../docs/response-codes.md', import.meta.url), renderResponseCodes());
}
