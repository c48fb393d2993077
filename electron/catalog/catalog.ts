import { existsSync } from 'node:fs';
import type { BridgeErrorCode } from '../../common/bridge/contract';
import { BridgeFailure } from '../../common/bridge/failure';
import { outsideAsar, startModuleWorker } from '../journal/journal';
import type {
  Catalog,
  CatalogRequest,
  CatalogResponse,
  CatalogWorkerData,
  ServiceMethod,
} from './catalog-protocol';

export type { Catalog } from './catalog-protocol';

/** The service's methods; every other name is the store's (catalog-protocol.ts). */
const SERVICE_METHODS: ReadonlySet<string> = new Set([
  'lookup',
  'importCsv',
  'exportCsv',
  'seedDemo',
] satisfies ServiceMethod[]);

export class CatalogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CatalogError';
  }
}

const PROBLEM_CODES: ReadonlySet<string> = new Set<BridgeErrorCode>(['invalid', 'not-found', 'conflict']);

function failure(error: Extract<CatalogResponse, { ok: false }>['error']): Error {
  // A refusal the person can fix arrives as the bridge's answer, every problem with it.
  if (error.name === 'CatalogProblem' && error.code && PROBLEM_CODES.has(error.code))
    return new BridgeFailure(error.code as BridgeErrorCode, error.message, {
      ...(error.problems ? { problems: error.problems } : {}),
      ...(error.problemWords ? { problemWords: error.problemWords } : {}),
      ...(error.messageId !== undefined ? { messageId: error.messageId } : {}),
      ...(error.params ? { params: error.params } : {}),
    });
  return new CatalogError(error.message);
}

/**
 * Starts the catalog worker on `path` (created and migrated if new) and resolves once it is open. Each
 * method resolves after its transaction committed; a refused request rejects with a BridgeFailure.
 */
export async function openCatalog(path: string): Promise<Catalog> {
  const data: CatalogWorkerData = { path };
  const source = new URL('./catalog-worker.ts', import.meta.url);
  const worker = startModuleWorker(
    existsSync(source) ? source : outsideAsar(new URL('./catalog-worker.mjs', import.meta.url)),
    data,
  );
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let nextId = 1;
  let failed: Error | undefined;
  let closing: ((v: unknown) => void) | undefined;

  await new Promise<void>((resolve, reject) => {
    const onFirst = (m: CatalogResponse) => {
      worker.off('error', onError);
      if (m.ok) resolve();
      else reject(new CatalogError(m.error.message));
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
  worker.on('message', (m: CatalogResponse) => {
    if (m.id === -1) {
      closing?.(undefined);
      return;
    }
    const p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    if (m.ok) p.resolve(m.value);
    else p.reject(failure(m.error));
  });
  worker.on('error', (e) => failAll(new CatalogError(`catalog worker failed: ${e.message}`)));
  worker.on('exit', (code) => {
    if (!closing) failAll(new CatalogError(`catalog worker exited (${code})`));
  });

  const call = (method: string, args: unknown[]): Promise<unknown> => {
    if (failed) return Promise.reject(failed);
    if (closing) return Promise.reject(new CatalogError('the catalog is closed'));
    const id = nextId++;
    const target = SERVICE_METHODS.has(method) ? 'service' : 'store';
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, target, method, args } satisfies CatalogRequest);
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
    failAll(new CatalogError('the catalog is closed'));
  };

  return new Proxy({} as Catalog, {
    get(_target, property) {
      if (property === 'close') return close;
      if (property === 'then') return undefined;
      return (...args: unknown[]) => call(String(property), args);
    },
  });
}
