import type { MessageWords } from '../../common/bridge/errors';
import type { CatalogService } from './catalog-service';
import type { CatalogStore } from './catalog-store';

/** What the core may ask of the catalog worker: the store's methods and the service's, by name. */
type Methods<T> = {
  [K in keyof T]: T[K] extends (...args: never[]) => unknown ? K : never;
}[keyof T];

export type StoreMethod = Exclude<Methods<CatalogStore>, 'close'>;
export type ServiceMethod = Methods<CatalogService>;

type Async<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<R> : never;

/** The catalog as the core sees it: the same methods, answered asynchronously after their commit. */
export type Catalog = { [K in StoreMethod]: Async<CatalogStore[K]> } & {
  [K in ServiceMethod]: Async<CatalogService[K]>;
} & {
  close(): Promise<void>;
};

export type CatalogRequest = { id: number; target: 'store' | 'service'; method: string; args: unknown[] };

export type CatalogResponse =
  | { id: number; ok: true; value: unknown }
  | {
      id: number;
      ok: false;
      error: {
        name: string;
        message: string;
        code?: string;
        problems?: string[];
        problemWords?: MessageWords[];
        messageId?: string;
        params?: Record<string, string | number>;
      };
    };

export type CatalogWorkerData = { path: string };
