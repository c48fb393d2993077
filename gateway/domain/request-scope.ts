import type { RequestContext, Services } from './context';

/** What a domain operation needs of one request: who calls, the services, and the request's instant. */
export type RequestScope = RequestContext & { services: Services; now: Date };
