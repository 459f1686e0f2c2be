import type { FastifyPluginAsync } from 'fastify';
import type { AppConfig } from '../config.js';
import accountsModule from './accounts/index.js';
import adminModule from './admin/index.js';
import filesModule from './files/index.js';
import guestsModule from './guests/index.js';
import meetingsModule from './meetings/index.js';
import systemModule from './system/index.js';

/**
 * Every API module, mounted under /api. A module is a folder with one public entry (`index.ts`):
 * nothing outside it imports its other files.
 */
export const apiModules: FastifyPluginAsync<{ config: AppConfig }>[] = [
  systemModule as FastifyPluginAsync<{ config: AppConfig }>,
  accountsModule,
  adminModule,
  guestsModule as FastifyPluginAsync<{ config: AppConfig }>,
  meetingsModule as FastifyPluginAsync<{ config: AppConfig }>,
  filesModule as FastifyPluginAsync<{ config: AppConfig }>,
];
