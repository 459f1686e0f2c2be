import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { API, ErrorBodySchema, GuestRequestSchema, GuestResponseSchema } from '@suite/contract';
import type { AppConfig } from '../../config.js';
import { createGuestService } from './service.js';

/** POST /guest: a guest gives a name and accepts the terms; the answer's _id is their guestId. */
const guestRoutes: FastifyPluginAsyncZod<{ config: AppConfig }> = async (app) => {
  const guests = createGuestService(app.db);
  app.post(
    API.guest,
    {
      preHandler: app.limit({ name: 'guest-create', max: 30, window: '10 minutes' }),
      schema: {
        tags: ['guests'],
        body: GuestRequestSchema,
        response: { 201: GuestResponseSchema, 400: ErrorBodySchema, 429: ErrorBodySchema },
      },
    },
    async (request, reply) => {
      const guest = await guests.create(request.body);
      return reply.status(201).send(guest);
    },
  );
};

export default guestRoutes;
