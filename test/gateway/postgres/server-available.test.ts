import { describe, expect, it } from 'vitest';
import { PG_URL_ENV, pgServerUrl, adminQuery } from '../../support/test-database';

const skip = process.env.TILLPOINT_TEST_PG === 'skip' && !process.env[PG_URL_ENV];

describe('the PostgreSQL half of the gateway suite', () => {
  it.skipIf(skip)(`has a PostgreSQL server to run on (${PG_URL_ENV}; bash .ci/postgres start)`, async () => {
    // Throws PostgresMissingError, whose message says how to start one.
    expect(pgServerUrl()).toMatch(/^postgres(ql)?:\/\//);
    const r = await adminQuery('select 1 as one');
    expect(r.rows).toEqual([{ one: 1 }]);
  });
});
