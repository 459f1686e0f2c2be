import { ADMIN_API } from '@suite/contract/core';
import type { PeoplePage, PersonStatus } from '@suite/contract';
import { apiRequest, lazySchema } from '../../../lib/api-client';

/** One page of the domain's people (keyset paged: `cursor` from the previous page). */
export const listPeople = (domain: string, query: { q?: string; status?: PersonStatus; cursor?: string }) =>
  apiRequest<PeoplePage>({
    path: ADMIN_API.adminPeople,
    params: { domain },
    query: { q: query.q || undefined, status: query.status, cursor: query.cursor },
    auth: true,
    schema: lazySchema('PeoplePageSchema'),
  });
