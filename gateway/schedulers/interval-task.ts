import type { BackgroundTask } from './background-task';

/**
 * A background task that runs `pass` every `intervalMs`: one pass at a time (a slow pass delays the next
 * rather than overlapping it), a failed pass reported and retried by the next, and a timer that never
 * keeps a stopping process alive. `stop()` waits for a pass in progress.
 */
export function intervalTask(
  name: string,
  pass: () => Promise<unknown>,
  intervalMs: number,
  onError: (error: unknown) => void,
): BackgroundTask {
  let timer: NodeJS.Timeout | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  const runOnce = async (): Promise<void> => {
    chain = chain.then(pass, pass);
    await chain;
  };
  return {
    name,
    start() {
      if (timer) return;
      timer = setInterval(() => {
        runOnce().catch(onError);
      }, intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await chain.catch(() => undefined);
    },
    runOnce,
  };
}
