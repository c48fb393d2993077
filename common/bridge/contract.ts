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

export * from './constants';
export * from './retail-limits';

export type * from './errors';
export type * from './session';
export type * from './employees';
export type * from './sale';
export type * from './card-services';
export type * from './receipts';
export type * from './transactions';
export type * from './batch';
export type * from './merchant';
export type * from './store-and-forward';
export type * from './reversals';
export type * from './gateway';
export type * from './devices';
export type * from './simulator';
export type * from './scanner';
export type * from './catalog';
export type * from './ticket';
export type * from './store-profile';
export type * from './email';
export type * from './status';
export type * from './till';
export type * from './customer';
export type * from './returns';
export type { CommandName, CommandPayload, CommandValue, Commands, CommandValues } from './commands';
export type * from './events';
export type * from './wire';
