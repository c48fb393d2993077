import { parentPort, workerData } from 'node:worker_threads';
import { JournalStore } from './journal-store';
import type {
  JournalErrorData,
  JournalRequest,
  JournalResponse,
  JournalWorkerData,
} from './journal-protocol';
import { ReturnRefusal } from '../returns/return-rules';
import { TillRefusal } from './till-store';

function errorData(e: Error): JournalErrorData {
  return (e instanceof TillRefusal || e instanceof ReturnRefusal) && e.messageId !== undefined
    ? {
        name: e.name,
        message: e.message,
        messageId: e.messageId,
        ...(e.params ? { params: e.params } : {}),
      }
    : { name: e.name, message: e.message };
}

/**
 * The journal's thread: it owns the better-sqlite3 connection, so the fsync of every commit happens here
 * and never stalls the core's event loop. Requests that arrive together are committed together (group
 * commit): one fsync for the batch, each request in its own savepoint so one failure does not undo the
 * others, and no request is answered before the batch is on disk.
 */

const port = parentPort;
if (!port) throw new Error('journal-worker must run as a worker thread');
const data = workerData as JournalWorkerData;

let store: JournalStore;
try {
  store = JournalStore.open(data.path);
} catch (error) {
  const e = error instanceof Error ? error : new Error(String(error));
  port.postMessage({
    id: 0,
    ok: false,
    error: { name: e.name, message: e.message },
  } satisfies JournalResponse);
  process.exit(1);
}
port.postMessage({ id: 0, ok: true, value: 'ready' } satisfies JournalResponse);

let queue: JournalRequest[] = [];
let scheduled = false;

function runOne(request: JournalRequest): JournalResponse {
  try {
    // Each request is a savepoint inside the batch transaction.
    const value = store.db.transaction(() =>
      (store as unknown as Record<string, (...args: unknown[]) => unknown>)[request.method]?.(
        ...request.args,
      ),
    )();
    return { id: request.id, ok: true, value };
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    return { id: request.id, ok: false, error: errorData(e) };
  }
}

function flush(): void {
  scheduled = false;
  const batch = queue;
  queue = [];
  if (batch.length === 0) return;
  let answers: JournalResponse[];
  try {
    answers = store.db.transaction(() => batch.map(runOne))();
  } catch (error) {
    // The commit itself failed (disk full, I/O error): nothing of the batch is durable.
    const e = error instanceof Error ? error : new Error(String(error));
    answers = batch.map((r) => ({ id: r.id, ok: false, error: { name: e.name, message: e.message } }));
  }
  for (const a of answers) port?.postMessage(a);
}

port.on('message', (message: JournalRequest | { id: -1; method: 'close' }) => {
  if (message.method === 'close') {
    flush();
    store.close();
    port.postMessage({ id: -1, ok: true, value: 'closed' } satisfies JournalResponse);
    return;
  }
  queue.push(message);
  if (!scheduled) {
    scheduled = true;
    // setImmediate lets every message already delivered join this batch.
    setImmediate(flush);
  }
});
