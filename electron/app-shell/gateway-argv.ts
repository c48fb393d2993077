/**
 * The installed app runs the bundled sandbox gateway in an Electron utility process. What such a process
 * sees in `process.argv` before its own arguments is Electron's business (executable, entry script, and
 * switches Chromium adds), while the gateway's CLI reads `process.argv` after the first two. So the main
 * process puts this marker before the gateway's arguments, and the entry rebuilds a plain argv from it.
 */
export const GATEWAY_ARGS_MARKER = '--tillpoint-gateway-args';

/** The argv the gateway's CLI should see: `[executable, script, ...its own arguments]`. */
export function gatewayArgv(argv: readonly string[]): string[] {
  const at = argv.indexOf(GATEWAY_ARGS_MARKER);
  const own = at >= 0 ? argv.slice(at + 1) : argv.slice(2);
  return [argv[0] ?? 'tillpoint', 'tillpoint-gateway', ...own];
}
