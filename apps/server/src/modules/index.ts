import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../config.js';
import systemRoutes from './system/routes.js';
import usersRoutes from './users/routes.js';
import authRoutes from './auth/routes.js';
import invitesRoutes from './invites/routes.js';
import guestRoutes from './guests/routes.js';
import meetingRoutes from './meetings/routes.js';
import filesRoutes from './files/routes.js';

/** Every API module, mounted under /api. A module owns its routes, service and repository. */
export const apiModules: FastifyPluginAsync<{ config: AppConfig }>[] = [
  systemRoutes as FastifyPluginAsync<{ config: AppConfig }>,
  usersRoutes as FastifyPluginAsync<{ config: AppConfig }>,
  authRoutes as FastifyPluginAsync<{ config: AppConfig }>,
  invitesRoutes as FastifyPluginAsync<{ config: AppConfig }>,
  guestRoutes as FastifyPluginAsync<{ config: AppConfig }>,
  meetingRoutes as FastifyPluginAsync<{ config: AppConfig }>,
  filesRoutes as FastifyPluginAsync<{ config: AppConfig }>,
];
