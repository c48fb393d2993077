/**
 * A processor call that may never answer: after `ms` the caller stops waiting and treats the outcome as
 * unknown (it cancels whatever the processor may still do). The call itself is not aborted.
 */
export async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
