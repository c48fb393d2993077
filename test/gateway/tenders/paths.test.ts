import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { merchant1, startGateway, type TestGateway } from '../../support/gateway-harness';
import { ResponseCode } from '../../../gateway/contract/response-codes';
import { DEFINED_HERE_NOTE } from '../../../gateway/http/operation';

/** The interface's paths of the tender and administration groups, and the ones docs/gateway-tenders.md defines. */
const interfacePaths = [
  ...['Account', 'Address', 'Cvv', 'ZipCode'].flatMap((c) => [
    `/api/FraudAutoDenyOptions/Enable${c}`,
    `/api/FraudAutoDenyOptions/Disable${c}`,
  ]),
  '/api/GiftCard/Activate',
  '/api/GiftCard/Deactivate',
  '/api/GiftCard/GetBalance',
  '/api/EbtTransaction/EbtCashBenefitsBalance',
  '/api/EbtTransaction/EbtCashBenefitsSale',
  '/api/EbtTransaction/EbtCashBenefitsWithdrawal',
  '/api/CheckProcessor/GetReport',
  '/api/CheckProcessor/ProcessCheck',
  '/api/CheckProcessor/ProcessToken',
  '/api/AchProcessor/GetReport',
  '/api/AchProcessor/ProcessAch',
  '/api/AchProcessor/VoidAch',
  '/api/GatewayAdmin/AddFraudAutoDenyOptions',
  '/api/GatewayAdmin/RemoveFraudAutodenyOptions',
  '/api/GatewayAdmin/ChangeDataWireId',
  '/api/GatewayAdmin/DoesUserExist',
  '/api/GatewayAdmin/GetUserAutodenyOptions',
  '/api/GatewayAdmin/SetAutomaticBatchClose',
  '/api/Administration/AddUserToProcessor',
  '/api/Administration/DeleteUserFromProcessor',
  '/api/Administration/GetCredentials',
  '/api/Administration/GetSubAccounts',
  '/api/Administration/RemoveMerchantFromAutomaticCloseBatch',
  '/api/Administration/SetAutomaticBatchClose',
  '/api/Administration/UpdateAutomaticHourToCloseBatch',
  ...[
    'GetAuthorizationLogSummary',
    'GetBatchDetail',
    'GetBatchSummaryByEntity',
    'GetBatchSummaryByMerchant',
    'GetCardSummary',
    'GetChargebacksDetail',
    'GetChargebacksSummary',
    'GetDepositsSummary',
    'GetMerchantStatement',
    'GetMerchantStatementList',
    'GetRetrievalsDetail',
  ].map((op) => `/api/Reporting/${op}`),
];

const definedHere = [
  '/api/FraudAutoDenyOptions/BlacklistAccount',
  '/api/FraudAutoDenyOptions/UnblacklistAccount',
  '/api/GiftCard/Sale',
  '/api/GiftCard/Reload',
  '/api/GiftCard/Refund',
  '/api/EbtTransaction/EbtFoodStampBalance',
  '/api/EbtTransaction/EbtFoodStampSale',
  '/api/EbtTransaction/EbtFoodStampReturn',
  '/api/Administration/GetAutomaticBatchClose',
];

describe('tender and administration paths', () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await startGateway({ backgroundTasks: false });
  });
  afterAll(async () => {
    await gw.close();
  });

  it('answers every path of the groups (an outcome, never 404 or 405)', async () => {
    expect(interfacePaths).toHaveLength(44);
    for (const path of [...interfacePaths, ...definedHere]) {
      const r = await gw.post(path, path.startsWith('/api/Reporting/') ? {} : { ...merchant1 });
      expect(r.status, path).toBe(200);
      expect(typeof r.body.ResponseCode, path).toBe('number');
    }
  });

  it('refuses every Reporting path without a bearer token', async () => {
    const reporting = interfacePaths.filter((p) => p.startsWith('/api/Reporting/'));
    expect(reporting).toHaveLength(11);
    for (const path of reporting)
      expect((await gw.post(path, {})).body.ResponseCode, path).toBe(ResponseCode.AuthenticationFailed);
  });

  it('declares every path in the OpenAPI document, the defined-here ones marked as such', async () => {
    const doc = (await gw.get('/openapi.json')).body as {
      paths: Record<string, { post?: { summary?: string; description?: string; tags?: string[] } }>;
    };
    for (const path of interfacePaths)
      expect(doc.paths[path]?.post?.description ?? '', path).not.toContain(DEFINED_HERE_NOTE);
    for (const path of definedHere)
      expect(doc.paths[path]?.post?.description, path).toContain(DEFINED_HERE_NOTE);
  });
});
