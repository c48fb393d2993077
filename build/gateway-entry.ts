import { gatewayArgv } from '../electron/app-shell/gateway-argv';

/**
 * Entry of the bundled gateway (`dist/app/gateway.mjs`) that the installed app starts as a utility
 * process: the same `gateway/server.ts` as `npm run gateway`, with its argv rebuilt first. The import is
 * dynamic so it runs after the rewrite (a static one would be hoisted above it).
 */
process.argv = gatewayArgv(process.argv);
await import('../gateway/server');
