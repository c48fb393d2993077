/**
 * The one contract between the renderer and the terminal core (docs/bridge.md), declared by domain in
 * contract/ and gathered here: the renderer imports this file and nothing else of electron/, so it must
 * never import Node, Electron or native code. Its types only, and a few constants: every payload type is
 * derived from its TypeBox schema (contract/commands.ts), which the dispatcher checks each call against,
 * and those schemas stay out of the renderer's bundle (`export type` below).
 *
 * Conventions (they hold for every command and event):
 * - Money is integer cents (`...Cents`), never a float.
 * - Card numbers appear only masked (first six / last four) or as `last4`. The only fields that carry a
 *   full card or account number are the keyed-entry inputs below; the core forwards them to the gateway
 *   and never logs, journals or echoes them.
 * - Times are epoch milliseconds (`...At`) unless the name says otherwise.
 * - Every command answers `{ ok: true, value } | { ok: false, error }`: Electron IPC keeps only an
 *   Error's message, so errors travel as data with a stable code (the Signal habit).
 * - New fields are only ever added as optional, and commands are never renamed: a renderer built
 *   against an older contract keeps working.
 */

export * from './contract/constants';
export * from './contract/retail-limits';

export type * from './contract/errors';
export type * from './contract/session';
export type * from './contract/employees';
export type * from './contract/sale';
export type * from './contract/card-services';
export type * from './contract/receipts';
export type * from './contract/transactions';
export type * from './contract/batch';
export type * from './contract/merchant';
export type * from './contract/store-and-forward';
export type * from './contract/reversals';
export type * from './contract/gateway';
export type * from './contract/devices';
export type * from './contract/simulator';
export type * from './contract/scanner';
export type * from './contract/catalog';
export type * from './contract/ticket';
export type * from './contract/store-profile';
export type * from './contract/email';
export type * from './contract/status';
export type * from './contract/till';
export type * from './contract/customer';
export type * from './contract/returns';
export type { CommandName, CommandPayload, CommandValue, Commands, CommandValues } from './contract/commands';
export type * from './contract/events';
export type * from './contract/wire';
