import type { JournalStore } from './journal-store';

/** The store's public methods: what the core may ask of the journal worker. */
export type JournalMethod = {
  [K in keyof JournalStore]: JournalStore[K] extends (...args: never[]) => unknown ? K : never;
}[keyof JournalStore] &
  Exclude<keyof JournalStore, 'db' | 'close'>;

type Fn<K extends JournalMethod> = JournalStore[K] extends (...args: infer A) => infer R ? [A, R] : never;

/** The journal as the core sees it: the same methods, answered asynchronously after commit. */
export type Journal = { [K in JournalMethod]: (...args: Fn<K>[0]) => Promise<Fn<K>[1]> } & {
  /** Stops the worker after the queued work commits. */
  close(): Promise<void>;
};

export type JournalRequest = { id: number; method: JournalMethod; args: unknown[] };

export type JournalResponse =
  { id: number; ok: true; value: unknown } | { id: number; ok: false; error: JournalErrorData };

/** An error as it crosses the thread: a refusal's screen words (messageId, params) go with it. */
export type JournalErrorData = {
  name: string;
  message: string;
  messageId?: string;
  params?: Record<string, string | number>;
};

export type JournalWorkerData = { path: string };
