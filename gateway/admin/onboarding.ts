import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { generateKeys, writeKeysFile } from '../security/keys';
import { createApplication, createCashier, createMerchant, createUser } from '../sandbox/seed';
import { AdminError, requireInt, requireString, type AdminCommand } from './command';

/** Commands that onboard a merchant outside the sandbox: keys, application key, merchant, users, cashiers. */
export const onboardingCommands: Record<string, AdminCommand> = {
  'init-keys': {
    summary: "create the data folder's key file (vault, fingerprint and token keys), owner-only",
    options: {},
    needsStorage: false,
    run(_args, { dataDir }) {
      const file = join(dataDir, 'keys.json');
      if (existsSync(file))
        throw new AdminError(
          `${file} already exists: keys are never replaced (the vault would become unreadable)`,
        );
      writeKeysFile(file, generateKeys());
      return Promise.resolve({ created: file });
    },
  },
  'add-application': {
    summary: 'register an application key (AppKey/AppType); the key is generated unless given',
    options: {
      'app-type': { type: 'string', help: 'AppType integer', required: true },
      name: { type: 'string', help: 'application name', required: true },
      'app-key': { type: 'string', help: 'use this AppKey instead of a generated one' },
    },
    needsStorage: true,
    async run(args, { storage }) {
      if (!storage) throw new AdminError('no database');
      const appKey =
        typeof args['app-key'] === 'string' ? args['app-key'] : randomBytes(18).toString('base64url');
      await createApplication(storage, appKey, requireInt(args, 'app-type'), requireString(args, 'name'));
      return { AppKey: appKey, AppType: requireInt(args, 'app-type') };
    },
  },
  'add-merchant': {
    summary: 'create a merchant (mid) with its time zone and credit processor',
    options: {
      mid: { type: 'string', help: 'merchant id', required: true },
      name: { type: 'string', help: 'business name', required: true },
      'time-zone': { type: 'string', help: 'IANA time zone, e.g. America/New_York (batch close runs in it)' },
      processor: { type: 'string', help: 'credit processor name (default sandbox)' },
      'no-token-lookup': { type: 'boolean', help: 'the processor does not support token lookups' },
    },
    needsStorage: true,
    async run(args, { storage }) {
      if (!storage) throw new AdminError('no database');
      const timeZone = typeof args['time-zone'] === 'string' ? args['time-zone'] : 'UTC';
      try {
        new Intl.DateTimeFormat('en-US', { timeZone });
      } catch {
        throw new AdminError(`--time-zone ${timeZone} is not an IANA time zone`);
      }
      const mid = requireInt(args, 'mid');
      await createMerchant(
        storage,
        {
          mid,
          name: requireString(args, 'name'),
          timeZone,
          creditProcessor: typeof args.processor === 'string' ? args.processor : 'sandbox',
          tokenLookup: args['no-token-lookup'] !== true,
        },
        new Date().toISOString(),
      );
      return { mid };
    },
  },
  'add-user': {
    summary:
      "create a merchant's API user; the password is read from TILLPOINT_NEW_PASSWORD (never a command-line argument)",
    options: {
      mid: { type: 'string', help: 'merchant id', required: true },
      user: { type: 'string', help: 'user name', required: true },
    },
    needsStorage: true,
    async run(args, { storage }) {
      if (!storage) throw new AdminError('no database');
      const password = process.env.TILLPOINT_NEW_PASSWORD;
      if (!password || password.length < 10) {
        throw new AdminError('set TILLPOINT_NEW_PASSWORD to the new password (10 characters or more)');
      }
      const id = await createUser(
        storage,
        requireInt(args, 'mid'),
        requireString(args, 'user'),
        password,
        new Date().toISOString(),
      );
      return { userId: id, user: requireString(args, 'user') };
    },
  },
  'add-cashier': {
    summary: 'create a cashier (cid) of a merchant',
    options: {
      mid: { type: 'string', help: 'merchant id', required: true },
      cid: { type: 'string', help: 'cashier id', required: true },
      first: { type: 'string', help: 'first name', required: true },
      last: { type: 'string', help: 'last name', required: true },
    },
    needsStorage: true,
    async run(args, { storage }) {
      if (!storage) throw new AdminError('no database');
      await createCashier(
        storage,
        requireInt(args, 'mid'),
        requireInt(args, 'cid'),
        requireString(args, 'first'),
        requireString(args, 'last'),
        new Date().toISOString(),
      );
      return { mid: requireInt(args, 'mid'), cid: requireInt(args, 'cid') };
    },
  },
};
