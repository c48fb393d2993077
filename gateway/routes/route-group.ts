import type { FastifyInstance } from 'fastify';
import type { GatewayServices } from '../http/services';
import type { BackgroundTask } from '../schedulers/background-task';

/**
 * Registers the operations of one resource of the interface. A group that owns background work (recurring
 * billing charges, automatic batch close) returns its tasks, which buildGateway starts and stops.
 */
export type RouteGroup = (
  app: FastifyInstance,
  services: GatewayServices,
) => void | readonly BackgroundTask[];
