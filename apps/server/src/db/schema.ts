import type { Generated } from 'kysely';

/** Times are epoch milliseconds (bigint in PostgreSQL, integer in SQLite). Booleans are 0/1. */
export interface UsersTable {
  id: string;
  email: string;
  password_hash: string | null;
  first_name: string;
  last_name: string;
  language: string;
  preferences: string;
  active: Generated<number>;
  confirmed_at: number | null;
  registered_at: number | null;
  /** Sessions issued before this instant are no longer accepted (password change, sign-out). */
  sessions_valid_after: Generated<number>;
  invited_by: string | null;
  created_at: number;
}

export interface ProfilesTable {
  id: string;
  user_id: string;
  type: 'PROFESSIONAL' | 'PERSONAL';
  first_name: string;
  last_name: string;
  created_at: number;
}

export interface DomainsTable {
  name: string;
  active: Generated<number>;
  mail_server_hosted: Generated<number>;
  sso_only: Generated<number>;
  /** null: no limit. */
  free_plan_limit: number | null;
  updated_at: number;
}

export interface Database {
  users: UsersTable;
  profiles: ProfilesTable;
  domains: DomainsTable;
}
