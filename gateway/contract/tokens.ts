import { Type, type Static } from 'typebox';
import { Text, withBase, withEnvelope } from './common';

/** Token record of the token lookups: all strings, Account masked to first six / last four. */
export const TokenRecord = Type.Object({
  ABARoute: Type.String(),
  Account: Type.String(),
  Active: Type.String(),
  Amount: Type.String(),
  BeginDate: Type.String(),
  CardHolderName: Type.String(),
  CardType: Type.String(),
  ClientRef: Type.String(),
  Description: Type.String(),
  EndDate: Type.String(),
  ExpirationDate: Type.String({ description: 'MMYY' }),
  Frequency: Type.String(),
  InstallementNum: Type.String(),
  InstallmentTotal: Type.String(),
  LastRunDate: Type.String(),
  LastRunId: Type.String(),
  Token: Type.String(),
  Identifier: Type.String(),
});
export type TokenRecord = Static<typeof TokenRecord>;

export const GetTokenForCardRequest = withEnvelope({
  Account: Text(19, { description: 'the card PAN (CardNumber is not an alias)' }),
  ExistingToken: Type.Optional(
    Text(128, { description: 'store this existing token instead of creating one' }),
  ),
  NameOnCard: Type.Optional(Text(64)),
  Street: Type.Optional(Text(128)),
  clientRef: Type.Optional(Text(64)),
  cv: Type.Optional(Text(4)),
  description: Type.Optional(Text(255)),
  expDate: Type.Optional(Text(4)),
  zipCode: Type.Optional(Text(16)),
});
export type GetTokenForCardRequest = Static<typeof GetTokenForCardRequest>;

export const TokenForCardResponse = withBase({
  Token: Type.Optional(Type.String()),
  Identifier: Type.Optional(Type.String({ description: 'opaque identifier for GetTokenByIdentifier' })),
  CardType: Type.Optional(Type.String()),
  LastFour: Type.Optional(Type.String()),
  ExpirationDate: Type.Optional(Type.String()),
});
export type TokenForCardResponse = Static<typeof TokenForCardResponse>;

export const TokenByIdentifierRequest = withEnvelope({
  Identifier: Type.Optional(Text(128, { description: 'the opaque identifier returned by GetTokenForCard' })),
});
export type TokenByIdentifierRequest = Static<typeof TokenByIdentifierRequest>;

export const TokenLookupResponse = withBase({
  OperationCode: Type.String(),
  Supported: Type.Boolean(),
  Tokens: Type.Array(TokenRecord),
});
export type TokenLookupResponse = Static<typeof TokenLookupResponse>;
