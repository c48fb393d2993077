import { LoginThrottle } from '../security/login-throttle';
import { AdminError, requireString, type AdminCommand } from './command';

/** Commands about logins: an administrator's unlock of a locked user ID (PCI DSS v4 8.3.4). */
export const securityCommands: Record<string, AdminCommand> = {
  'unlock-user': {
    summary:
      'end the lockout of a user ID (10 invalid logins from any addresses lock it for 30 minutes) and its ' +
      'delays at every address; prints whether it was locked',
    options: {
      user: { type: 'string', help: 'the UserName', required: true },
    },
    needsStorage: true,
    async run(args, { storage }) {
      if (!storage) throw new AdminError('no database');
      const user = requireString(args, 'user');
      // On PostgreSQL this takes effect in every gateway process at once: the lockout lives in the database.
      const { wasLocked, failures } = await new LoginThrottle(storage).unlock(user, new Date());
      return { user, wasLocked, failures };
    },
  },
};
