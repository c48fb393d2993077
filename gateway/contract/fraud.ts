import { Type, type Static } from 'typebox';
import { Text, withBase, withEnvelope } from './common';
import { endpoint } from './endpoint';
import { EnvelopeOnlyRequest } from './transactions';

/** The state of the four checks after the operation (the interface does not show these responses). */
const fraudStateProperties = {
  Options: Type.String({
    description:
      'enabled checks as the option numbers of GatewayAdmin (1 Account, 2 Address, 3 Cvv, 4 ZipCode)',
  }),
  Account: Type.Boolean(),
  Address: Type.Boolean(),
  Cvv: Type.Boolean(),
  ZipCode: Type.Boolean(),
};

export const FraudOptionsResponse = withBase(fraudStateProperties);
export type FraudOptionsResponse = Static<typeof FraudOptionsResponse>;

export const BlacklistedAccount = Type.Object({
  CardNumber: Type.String({ description: 'masked: first six and last four' }),
  AddedOn: Type.String({ format: 'date-time' }),
});

export const AutodenyOptionsResponse = withBase({
  ...fraudStateProperties,
  BlacklistedAccounts: Type.Array(BlacklistedAccount),
});
export type AutodenyOptionsResponse = Static<typeof AutodenyOptionsResponse>;

export const FraudOptionsRequest = withEnvelope({
  Options: Text(64, {
    description: 'comma-separated option numbers: 1 Account, 2 Address, 3 Cvv, 4 ZipCode',
  }),
});
export type FraudOptionsRequest = Static<typeof FraudOptionsRequest>;

export const BlacklistRequest = withEnvelope({
  CardNumber: Type.Optional(Text(19, { description: 'the card to list; or ServiceTransactionNumber' })),
  ServiceTransactionNumber: Type.Optional(
    Text(64, { description: 'a payment of this merchant whose card is to be listed' }),
  ),
});
export type BlacklistRequest = Static<typeof BlacklistRequest>;

export const BlacklistResponse = withBase({
  CardNumber: Type.String({ description: 'masked: first six and last four' }),
  Blacklisted: Type.Boolean(),
});
export type BlacklistResponse = Static<typeof BlacklistResponse>;

const group = 'Fraud Auto Deny Options';

function toggle<const P extends string>(path: P, summary: string) {
  return endpoint({
    method: 'POST',
    path,
    group,
    summary,
    auth: 'envelope',
    body: EnvelopeOnlyRequest,
    response: FraudOptionsResponse,
  });
}

export const fraudEndpoints = {
  enableAccount: toggle(
    '/api/FraudAutoDenyOptions/EnableAccount',
    "Deny sales whose card is on the merchant's account blacklist (113)",
  ),
  disableAccount: toggle('/api/FraudAutoDenyOptions/DisableAccount', 'Stop the account blacklist check'),
  enableAddress: toggle(
    '/api/FraudAutoDenyOptions/EnableAddress',
    'Deny sales whose street address fails AVS (110)',
  ),
  disableAddress: toggle('/api/FraudAutoDenyOptions/DisableAddress', 'Stop the AVS street address check'),
  enableCvv: toggle(
    '/api/FraudAutoDenyOptions/EnableCvv',
    'Deny sales whose security code does not match (112)',
  ),
  disableCvv: toggle('/api/FraudAutoDenyOptions/DisableCvv', 'Stop the security code check'),
  enableZipCode: toggle(
    '/api/FraudAutoDenyOptions/EnableZipCode',
    'Deny sales whose zip code fails AVS (111)',
  ),
  disableZipCode: toggle('/api/FraudAutoDenyOptions/DisableZipCode', 'Stop the AVS zip code check'),
  blacklistAccount: endpoint({
    method: 'POST',
    path: '/api/FraudAutoDenyOptions/BlacklistAccount',
    group,
    summary:
      "Put a card (CardNumber, or the card of a ServiceTransactionNumber) on the merchant's account blacklist",
    auth: 'envelope',
    body: BlacklistRequest,
    response: BlacklistResponse,
    definedHere: true,
  }),
  unblacklistAccount: endpoint({
    method: 'POST',
    path: '/api/FraudAutoDenyOptions/UnblacklistAccount',
    group,
    summary: "Take a card off the merchant's account blacklist",
    auth: 'envelope',
    body: BlacklistRequest,
    response: BlacklistResponse,
    definedHere: true,
  }),
  addOptions: endpoint({
    method: 'POST',
    path: '/api/GatewayAdmin/AddFraudAutoDenyOptions',
    group: 'Gateway Admin',
    summary: 'Enable the listed auto-deny checks (Options: 1 Account, 2 Address, 3 Cvv, 4 ZipCode)',
    auth: 'envelope',
    body: FraudOptionsRequest,
    response: FraudOptionsResponse,
  }),
  removeOptions: endpoint({
    method: 'POST',
    path: '/api/GatewayAdmin/RemoveFraudAutodenyOptions',
    group: 'Gateway Admin',
    summary: 'Disable the listed auto-deny checks',
    auth: 'envelope',
    body: FraudOptionsRequest,
    response: FraudOptionsResponse,
  }),
  getOptions: endpoint({
    method: 'POST',
    path: '/api/GatewayAdmin/GetUserAutodenyOptions',
    group: 'Gateway Admin',
    summary: "The merchant's auto-deny checks and its account blacklist (masked)",
    auth: 'envelope',
    body: EnvelopeOnlyRequest,
    response: AutodenyOptionsResponse,
  }),
};
