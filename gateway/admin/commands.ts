import type { AdminCommand } from './command';
import { disputeCommands } from './disputes';
import { migrationCommands } from './migrate-to-postgres';
import { onboardingCommands } from './onboarding';
import { securityCommands } from './security';

/** Every admin command by name. Groups add theirs here. */
export const adminCommands: Record<string, AdminCommand> = {
  ...onboardingCommands,
  ...disputeCommands,
  ...migrationCommands,
  ...securityCommands,
};
