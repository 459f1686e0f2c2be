import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../config.js';
import systemRoutes from './system/routes.js';

/** Every API module, mounted under /api. A module owns its routes, service and repository. */
export const apiModules: FastifyPluginAsync<{ config: AppConfig }>[] = [
  systemRoutes as FastifyPluginAsync<{ config: AppConfig }>,
];
