import { writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { ResponseCode, responseCatalog } from '../contract/response-codes';

/** docs/response-codes.md, rendered from the catalog so the page never drifts from the code. */
export function renderResponseCodes(): string {
  const names = new Map<number, string>();
  for (const [name, code] of Object.entries(ResponseCode)) names.set(code, name);
  const rows = Object.entries(responseCatalog)
    .map(([code, entry]) => ({ code: Number(code), ...entry }))
    .sort((a, b) => a.code - b.code)
    .map(
      (e) =>
        `| ${e.code} | ${names.get(e.code) ?? ''} | ${e.verbiage} | ${e.meaning.replace(/\|/g, '\\|')} |`,
    );
  return [
    '# Gateway ResponseCode catalog',
    '',
    'Generated from `gateway/contract/response-codes*.ts` by `npm run docs:codes`; a test fails when this page is stale.',
    'A request that reaches an endpoint is answered with HTTP 200 and its outcome here; transport faults',
    '(400, 404, 405, 413, 415, 500, 503) also carry their HTTP status. The interface fixes 200, 506, 501, 3,',
    '404 and 300; every other condition has its own number, and a number never changes meaning.',
    '',
    '| Code | Name | verbiage | Meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(new URL('../../docs/response-codes.md', import.meta.url), renderResponseCodes());
}
