/**
 * The whole API table, for the server (it mounts every path) and tests. A module of its own: the web
 * imports the table of its area (paths-*.ts), and the package is free of side effects (package.json), so
 * this module — and the server-only paths — stay out of the web bundle.
 */
import { ACCOUNT_API } from './paths-accounts.js';
import { FILE_API } from './paths-files.js';
import { VIDEOCONFERENCE_API } from './paths-meetings.js';
import { SECURITY_API } from './paths-security.js';

/** Paths only the server and operators use (health, documentation, the identity providers' callbacks). */
const SERVICE_API = {
  health: '/health',
  /** Liveness: 200 while the process runs (no dependency is checked). */
  healthLive: '/health/live',
  config: '/config',
  docs: '/docs',
  ssoOidcCallback: '/sso/oidc/callback',
  ssoSamlMetadata: '/sso/saml/metadata',
  ssoSamlAcs: '/sso/saml/acs',
  /** SAML single logout (HTTP-Redirect and HTTP-POST): the IdP's LogoutRequest, or its LogoutResponse to ours. */
  ssoSamlSlo: '/sso/saml/slo',
  /** OpenID Connect back-channel logout (`/<connection id>`): the provider's logout token ends sessions. */
  ssoOidcBackchannelLogout: '/sso/oidc/backchannel-logout',
} as const;

/** Every path: the server mounts these; the web imports the table of its area (paths-*.ts). */
export const API = { ...SERVICE_API, ...ACCOUNT_API, ...SECURITY_API, ...VIDEOCONFERENCE_API, ...FILE_API } as const;
