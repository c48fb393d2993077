import { Type, type Static, type TProperties } from 'typebox';
import { Int32, StringEnum, Text, withBase, withEnvelope } from './common';
import { endpoint } from './endpoint';
import { EnvelopeOnlyRequest } from './transactions';

/**
 * The Processor enumeration: 40 values in a fixed order. The interface writes them ProcessorValue01 to
 * ProcessorValue40 (the literals are company names); ProcessorId is the 1-based position.
 */
export const ProcessorValues = Array.from(
  { length: 40 },
  (_, i) => `ProcessorValue${String(i + 1).padStart(2, '0')}`,
) as readonly string[];

export const IndustryCodeValues = ['A', 'AE', 'AF', 'E', 'F', 'FE', 'G', 'GE', 'H', 'M', 'R', 'RS'] as const;

export const AddUserToProcessorRequest = withEnvelope({
  CardTypes: Type.Optional(Text(255, { description: 'comma-separated card types the user accepts' })),
  ExtraData: Type.Optional(Text(255)),
  ExtraFielsKeys: Type.Optional(Text(1024, { description: 'comma-separated keys (spelled so)' })),
  ExtraFielsValues: Type.Optional(
    Text(2048, { description: 'comma-separated values, one per key (sealed)' }),
  ),
  FraudAutodenyOptions: Type.Optional(
    Text(64, { description: 'option numbers as for AddFraudAutoDenyOptions' }),
  ),
  NewPass: Type.Optional(
    Text(128, { description: "the user's processor password (sealed, never returned)" }),
  ),
  NewUser: Type.Optional(Text(64, { description: "the user's processor user name (returned masked)" })),
  IndustryCode: Type.Optional(StringEnum(IndustryCodeValues)),
  Processor: Type.Optional(StringEnum(ProcessorValues, 'one of the 40 Processor values')),
  ProcessorExtraFields: Type.Optional(
    Type.Record(Type.String({ maxLength: 32 }), Text(256), {
      maxProperties: 32,
      description: 'processor-specific settings; values are sealed and returned masked',
    }),
  ),
  ProcessorId: Type.Optional(Int32({ description: '1-based position of Processor (1..40)' })),
});
export type AddUserToProcessorRequest = Static<typeof AddUserToProcessorRequest>;

const processorIdentity = {
  ProcessorId: Int32(),
  Processor: Type.String(),
} satisfies TProperties;

export const AddedUserResponse = withBase({
  ...processorIdentity,
  IndustryCode: Type.String(),
  UserName: Type.String({ description: 'masked' }),
});
export type AddedUserResponse = Static<typeof AddedUserResponse>;

export const ProcessorIdRequest = withEnvelope({
  ProcessorId: Type.Optional(Int32({ description: '1-based position of the Processor value' })),
});
export type ProcessorIdRequest = Static<typeof ProcessorIdRequest>;

export const DeletedUserResponse = withBase({ ...processorIdentity, Deleted: Type.Boolean() });
export type DeletedUserResponse = Static<typeof DeletedUserResponse>;

export const GetCredentialsRequest = withEnvelope({
  ExtraData: Type.Optional(Text(255, { description: 'accepted; the lookup is by ProcessorId' })),
  ProcessorId: Type.Optional(Int32({ description: "one processor; all of the merchant's when absent" })),
});
export type GetCredentialsRequest = Static<typeof GetCredentialsRequest>;

export const CredentialRecord = Type.Object({
  ...processorIdentity,
  IndustryCode: Type.String(),
  UserName: Type.String({ description: 'masked: first two characters' }),
  Password: Type.String({ description: 'always masked' }),
  CardTypes: Type.String(),
  ExtraData: Type.String(),
  ExtraFieldKeys: Type.Array(Type.String()),
  ExtraFieldValues: Type.Array(Type.String({ description: 'masked' })),
  FraudAutodenyOptions: Type.String(),
  CreatedOn: Type.String({ format: 'date-time' }),
});

export const CredentialsResponse = withBase({ Credentials: Type.Array(CredentialRecord) });
export type CredentialsResponse = Static<typeof CredentialsResponse>;

export const SubAccount = Type.Object({
  CanSale: Type.Boolean(),
  in_black_list: Type.Boolean(),
  isDemo: Type.Boolean(),
  is_enable: Type.Boolean(),
  DataWireId: Type.String(),
  DataWireIdBackUp: Type.String(),
  description: Type.String(),
  first_name: Type.String(),
  host_pass: Type.String({ description: 'never returned: empty' }),
  host_user: Type.String({ description: "masked user of the merchant's first processor user, or empty" }),
  last_name: Type.String(),
  picture_link: Type.String(),
  WebsitePaymentsCount: Int32({ description: "the cashier's approved e-commerce payments" }),
  id: Int32({ description: 'the cashier id (cid)' }),
  mid: Int32(),
  createdOn: Type.String({ format: 'date-time' }),
});

export const SubAccountsResponse = withBase({ SubAccounts: Type.Array(SubAccount) });
export type SubAccountsResponse = Static<typeof SubAccountsResponse>;

export const ChangeDataWireIdRequest = withEnvelope({
  DataWireID: Type.Optional(Text(64, { description: "the calling cashier's new DataWire id (required)" })),
  ProcessorMid: Type.Optional(Text(64, { description: 'the merchant id at the processor' })),
});
export type ChangeDataWireIdRequest = Static<typeof ChangeDataWireIdRequest>;

export const UserChangeResponse = withBase({
  cid: Int32(),
  DataWireId: Type.String(),
  DataWireIdBackUp: Type.String({ description: 'the previous DataWire id' }),
  ProcessorMid: Type.String(),
});
export type UserChangeResponse = Static<typeof UserChangeResponse>;

export const UserExistsResponse = withBase({
  UserExists: Type.Boolean(),
  UserName: Type.String(),
  mid: Int32(),
  cid: Int32(),
  ProcessorIds: Type.Array(Int32(), { description: 'processors the merchant has a user at' }),
});
export type UserExistsResponse = Static<typeof UserExistsResponse>;

export const BatchCloseTimeRequest = withEnvelope({
  Time: Type.Optional(
    Text(40, {
      description:
        "daily closing time: a date-time whose time of day is used (without an offset it is the merchant's local time; with one it is converted to it), or HH:MM",
    }),
  ),
});
export type BatchCloseTimeRequest = Static<typeof BatchCloseTimeRequest>;

export const BatchCloseResponse = withBase({
  Enrolled: Type.Boolean(),
  CloseTime: Type.Union([Type.String({ description: "HH:MM, merchant's local time" }), Type.Null()]),
  TimeZone: Type.String(),
  NextCloseOn: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});
export type BatchCloseResponse = Static<typeof BatchCloseResponse>;

const admin = 'Administration';
const gatewayAdmin = 'Gateway Admin';

export const adminEndpoints = {
  addUserToProcessor: endpoint({
    method: 'POST',
    path: '/api/Administration/AddUserToProcessor',
    group: admin,
    summary: "Add the merchant's user at a processor (credentials sealed)",
    auth: 'envelope',
    body: AddUserToProcessorRequest,
    response: AddedUserResponse,
  }),
  deleteUserFromProcessor: endpoint({
    method: 'POST',
    path: '/api/Administration/DeleteUserFromProcessor',
    group: admin,
    summary: "Remove the merchant's user at a processor",
    auth: 'envelope',
    body: ProcessorIdRequest,
    response: DeletedUserResponse,
  }),
  getCredentials: endpoint({
    method: 'POST',
    path: '/api/Administration/GetCredentials',
    group: admin,
    summary: "The merchant's processor users, credentials masked",
    auth: 'envelope',
    body: GetCredentialsRequest,
    response: CredentialsResponse,
  }),
  getSubAccounts: endpoint({
    method: 'POST',
    path: '/api/Administration/GetSubAccounts',
    group: admin,
    summary: "The merchant's cashiers (subaccounts)",
    auth: 'envelope',
    body: EnvelopeOnlyRequest,
    response: SubAccountsResponse,
  }),
  removeFromAutomaticClose: endpoint({
    method: 'POST',
    path: '/api/Administration/RemoveMerchantFromAutomaticCloseBatch',
    group: admin,
    summary: 'Leave automatic batch close: batches must then be closed with DoSettlement',
    auth: 'envelope',
    body: EnvelopeOnlyRequest,
    response: BatchCloseResponse,
  }),
  setAutomaticBatchClose: endpoint({
    method: 'POST',
    path: '/api/Administration/SetAutomaticBatchClose',
    group: admin,
    summary: 'Enroll in automatic batch close at Time (17:00 when absent); no action when already enrolled',
    auth: 'envelope',
    body: BatchCloseTimeRequest,
    response: BatchCloseResponse,
  }),
  updateAutomaticHour: endpoint({
    method: 'POST',
    path: '/api/Administration/UpdateAutomaticHourToCloseBatch',
    group: admin,
    summary: 'Move the daily closing time; only when enrolled (else 425)',
    auth: 'envelope',
    body: BatchCloseTimeRequest,
    response: BatchCloseResponse,
  }),
  getAutomaticBatchClose: endpoint({
    method: 'POST',
    path: '/api/Administration/GetAutomaticBatchClose',
    group: admin,
    summary: 'Whether the merchant is enrolled in automatic batch close, at what time, and the next close',
    auth: 'envelope',
    body: EnvelopeOnlyRequest,
    response: BatchCloseResponse,
    definedHere: true,
  }),
  gatewaySetAutomaticBatchClose: endpoint({
    method: 'POST',
    path: '/api/GatewayAdmin/SetAutomaticBatchClose',
    group: gatewayAdmin,
    summary: 'As Administration SetAutomaticBatchClose',
    auth: 'envelope',
    body: BatchCloseTimeRequest,
    response: BatchCloseResponse,
  }),
  changeDataWireId: endpoint({
    method: 'POST',
    path: '/api/GatewayAdmin/ChangeDataWireId',
    group: gatewayAdmin,
    summary: "Change the calling cashier's DataWire id (the previous one becomes the backup)",
    auth: 'envelope',
    body: ChangeDataWireIdRequest,
    response: UserChangeResponse,
  }),
  doesUserExist: endpoint({
    method: 'POST',
    path: '/api/GatewayAdmin/DoesUserExist',
    group: gatewayAdmin,
    summary: 'Whether the authenticated user exists and is enabled, with its processor users',
    auth: 'envelope',
    body: EnvelopeOnlyRequest,
    response: UserExistsResponse,
  }),
};
