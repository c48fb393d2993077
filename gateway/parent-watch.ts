/**
 * `--parent-pid N`: a gateway another program starts for its own use (the terminal's embedded gateway)
 * ends with that program. A parent killed with SIGKILL, or crashed, runs no cleanup, and its gateway would
 * live on as an orphan keeping its port and its database while the program's next launch starts another
 * one on them. So the gateway checks, twice a second, that process N is still there (and, where N started
 * it, still its parent: a pid reused by another process is not N), and when it is not calls `stop` — the
 * SIGTERM path, which answers in-flight requests and drains the commit queue before exiting.
 */
export function stopWithParent(parentPid: number, stop: () => void, everyMs = 500): void {
  const startedByIt = process.ppid === parentPid;
  const gone = (): boolean => {
    if (startedByIt && process.ppid !== parentPid) return true;
    try {
      process.kill(parentPid, 0);
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code !== 'EPERM';
    }
  };
  if (gone()) {
    stop();
    return;
  }
  const timer = setInterval(() => {
    if (!gone()) return;
    clearInterval(timer);
    stop();
  }, everyMs);
  // The server keeps the process alive; this check alone never should.
  timer.unref();
}
