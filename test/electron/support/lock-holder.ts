import { spawn } from 'node:child_process';
import { acquireLock, addLockChild } from '../../../electron/core/data-folder-lock';

/**
 * A terminal in miniature for the data-folder lock's tests: takes the lock on TP_DATA, starts a child
 * that outlives it (as the embedded gateway would, for a moment, after a SIGKILL), records the child in
 * the lock, prints the child's pid, and waits to be killed.
 */
const dataDir = process.env.TP_DATA;
if (!dataDir) throw new Error('TP_DATA is required');
acquireLock(dataDir);
const child = spawn(process.execPath, ['-e', 'setTimeout(() => undefined, 60_000)'], {
  detached: true,
  stdio: 'ignore',
});
child.unref();
if (child.pid === undefined) throw new Error('the child did not start');
addLockChild(dataDir, child.pid);
process.stdout.write(`${child.pid}\n`);
setInterval(() => undefined, 60_000);
