import { ADMIN_API } from '@suite/contract/core';
import type { AuditKind, AuditPage } from '@suite/contract';
import { apiRequest, lazySchema } from '../../../lib/api-client';
import { apiDownload } from '../../../lib/api-download';

export interface AuditFilters {
  person?: string;
  kind?: AuditKind;
  /** ISO instants: from inclusive, to exclusive. */
  from?: string;
  to?: string;
}

export const listAudit = (domain: string, filters: AuditFilters, cursor?: string) =>
  apiRequest<AuditPage>({
    path: ADMIN_API.adminAudit,
    params: { domain },
    query: { ...filters, cursor },
    auth: true,
    schema: lazySchema('AuditPageSchema'),
  });

/** The CSV export of the same filters, streamed by the server, as a file to save. */
export const exportAudit = (domain: string, filters: AuditFilters) =>
  apiDownload({ path: ADMIN_API.adminAuditExport, params: { domain }, query: { ...filters } });
