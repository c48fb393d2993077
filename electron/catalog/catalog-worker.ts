import { parentPort, workerData } from 'node:worker_threads';
import type { CatalogRequest, CatalogResponse, CatalogWorkerData } from './catalog-protocol';
import { CatalogProblem } from './catalog-problem';
import { CatalogService } from './catalog-service';
import { CatalogStore } from './catalog-store';

/**
 * The catalog's thread: it owns catalog.sqlite, so neither an fsync nor an import of tens of thousands of
 * rows ever runs on the core's event loop (docs/decisions.md#off-the-ui-thread). Requests run one at a time,
 * each in its own transaction: a request that throws changes nothing.
 */

const port = parentPort;
if (!port) throw new Error('catalog-worker must run as a worker thread');
const data = workerData as CatalogWorkerData;

let store: CatalogStore;
try {
  store = CatalogStore.open(data.path);
} catch (error) {
  const e = error instanceof Error ? error : new Error(String(error));
  port.postMessage({
    id: 0,
    ok: false,
    error: { name: e.name, message: e.message },
  } satisfies CatalogResponse);
  process.exit(1);
}
const service = new CatalogService(store);
port.postMessage({ id: 0, ok: true, value: 'ready' } satisfies CatalogResponse);

function run(request: CatalogRequest): CatalogResponse {
  try {
    const target = (request.target === 'service' ? service : store) as unknown as Record<
      string,
      ((...args: unknown[]) => unknown) | undefined
    >;
    const method = target[request.method];
    if (typeof method !== 'function') throw new Error(`no catalog method ${request.method}`);
    const value = store.db.transaction(() => method.apply(target, request.args))();
    return { id: request.id, ok: true, value };
  } catch (error) {
    if (error instanceof CatalogProblem)
      return {
        id: request.id,
        ok: false,
        error: {
          name: error.name,
          message: error.message,
          code: error.code,
          ...(error.problems ? { problems: error.problems } : {}),
          ...(error.problemWords ? { problemWords: error.problemWords } : {}),
          ...(error.messageId !== undefined ? { messageId: error.messageId } : {}),
          ...(error.params ? { params: error.params } : {}),
        },
      };
    const e = error instanceof Error ? error : new Error(String(error));
    return { id: request.id, ok: false, error: { name: e.name, message: e.message } };
  }
}

port.on('message', (message: CatalogRequest | { id: -1; method: 'close' }) => {
  if (message.id === -1) {
    store.close();
    port.postMessage({ id: -1, ok: true, value: 'closed' } satisfies CatalogResponse);
    return;
  }
  port.postMessage(run(message as CatalogRequest));
});
