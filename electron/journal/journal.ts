import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type {
  Journal,
  JournalErrorData,
  JournalMethod,
  JournalRequest,
  JournalResponse,
  JournalWorkerData,
} from './journal-protocol';

export type { Journal } from './journal-protocol';

export class JournalError extends Error {
  /** A refusal's screen words, as the worker sent them (journal-protocol.ts JournalErrorData). */
  messageId: string | undefined;
  params: Record<string, string | number> | undefined;
  constructor(message: string, name = 'JournalError', data: Partial<JournalErrorData> = {}) {
    super(message);
    this.name = name;
    this.messageId = data.messageId;
    this.params = data.params;
  }
}

/**
 * A worker for a module that may be TypeScript: from source (tsx, vitest) the worker registers tsx
 * itself, because Node 20 neither passes the parent's loader hooks to workers nor honours `--import` in a
 * worker's execArgv; a built (.js) module is started directly.
 */
export function startModuleWorker(moduleUrl: URL, workerData: unknown): Worker {
  const path = fileURLToPath(moduleUrl);
  if (!path.endsWith('.ts')) return new Worker(moduleUrl, { workerData });
  // The ESM build of tsx's API: its CommonJS build resolves its hooks relative to the wrong folder.
  const tsxApi = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/index\.cjs$/, 'index.mjs'),
  ).href;
  const boot = `
    import(${JSON.stringify(tsxApi)})
      .then((api) => { api.register(); return import(${JSON.stringify(moduleUrl.href)}); })
      .catch((e) => { console.error(e); process.exit(1); });
  `;
  return new Worker(boot, { eval: true, workerData });
}

/**
 * In an installed app the bundle sits inside `app.asar`, which only Electron's patched main-process `fs`
 * can read; a worker thread loads its script with Node's own loader, so the worker and its native module
 * are unpacked beside the archive (build/electron-builder.config.ts, `asarUnpack`) and loaded from there.
 */
export function outsideAsar(url: URL): URL {
  const path = fileURLToPath(url);
  const unpacked = path.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2');
  return unpacked === path ? url : pathToFileURL(unpacked);
}

/**
 * Starts the journal worker on `path` and resolves once the database is open and migrated. Every method
 * of the returned Journal resolves only after its work is committed to disk.
 */
export async function openJournal(path: string): Promise<Journal> {
  const data: JournalWorkerData = { path };
  // From source the worker is the .ts file beside this one; in the Electron bundle, journal-worker.mjs.
  const source = new URL('./journal-worker.ts', import.meta.url);
  const worker = startModuleWorker(
    existsSync(source) ? source : outsideAsar(new URL('./journal-worker.mjs', import.meta.url)),
    data,
  );
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let failed: Error | undefined;
  let closing: ((v: unknown) => void) | undefined;

  await new Promise<void>((resolve, reject) => {
    const onFirst = (m: JournalResponse) => {
      worker.off('error', onError);
      if (m.ok) resolve();
      else reject(new JournalError(m.error.message, m.error.name));
    };
    const onError = (e: Error) => {
      worker.off('message', onFirst);
      reject(e);
    };
    worker.once('message', onFirst);
    worker.once('error', onError);
  });

  const failAll = (error: Error) => {
    failed = error;
    for (const p of pending.values()) p.reject(error);
    pending.clear();
  };
  worker.on('message', (m: JournalResponse) => {
    if (m.id === -1) {
      closing?.(undefined);
      return;
    }
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve(m.value);
    else p.reject(new JournalError(m.error.message, m.error.name, m.error));
  });
  worker.on('error', (e) => failAll(new JournalError(`journal worker failed: ${e.message}`)));
  worker.on('exit', (code) => {
    if (!closing) failAll(new JournalError(`journal worker exited (${code})`));
  });

  const call = (method: JournalMethod, args: unknown[]): Promise<unknown> => {
    if (failed) return Promise.reject(failed);
    // After close nothing would ever answer: refuse instead of hanging the caller.
    if (closing) return Promise.reject(new JournalError('the journal is closed'));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, method, args } satisfies JournalRequest);
    });
  };

  const close = async (): Promise<void> => {
    if (failed || closing) {
      await worker.terminate();
      return;
    }
    await new Promise((resolve) => {
      closing = resolve;
      worker.postMessage({ id: -1, method: 'close' });
    });
    await worker.terminate();
    failAll(new JournalError('the journal is closed'));
  };

  return new Proxy({} as Journal, {
    get(_target, property) {
      if (property === 'close') return close;
      if (property === 'then') return undefined; // not a thenable
      return (...args: unknown[]) => call(property as JournalMethod, args);
    },
  });
}
