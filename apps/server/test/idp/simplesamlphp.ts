import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { selfSigned, testCa } from './ca.js';

/** Debian's SimpleSAMLphp (package simplesamlphp), its web root and its PHP code. */
const SSP_ROOT = '/usr/share/simplesamlphp';
const PHP = '/usr/bin/php';

/** Why the SimpleSAMLphp suite cannot run here, or null when it can. */
export function simpleSamlPhpMissing(): string | null {
  if (!existsSync(PHP)) return `${PHP} is missing (apt-get install php-cli php-xml php-mbstring php-curl php-intl)`;
  if (!existsSync(join(SSP_ROOT, 'www', 'saml2', 'idp', 'SSOService.php')))
    return `${SSP_ROOT} is missing (apt-get install simplesamlphp)`;
  return null;
}

/** A static user of the exampleauth:UserPass source (password = username). */
export interface SspUser {
  username: string;
  attributes: Record<string, string[]>;
}

/** How SimpleSAMLphp treats our service provider (its saml20-sp-remote entry). */
export interface SspSpOptions {
  /** Encrypt the assertion to our metadata's encryption certificate. */
  encrypt?: boolean;
  /** Sign with RSA-SHA1 instead of RSA-SHA256. */
  sha1?: boolean;
}

export interface SimpleSamlPhp {
  url: string;
  entityId: string;
  /** The IdP's metadata XML (what an operator gives `sso set --saml --metadata`). */
  metadata(): Promise<string>;
  /** The same metadata at an https URL (a TLS front signed by the test CA, as nginx would be in production). */
  metadataUrl: string;
  /** Reads our SP metadata again and writes SimpleSAMLphp's entry for it (read on its next request). */
  trustSp(spMetadata: string, options?: SspSpOptions): void;
  /** The IdP-initiated sign-in address (the app tile). */
  tileUrl(spEntityId: string): string;
  /** The address that ends the IdP session and sends LogoutRequests to every SP of it. */
  logoutUrl(returnTo: string): string;
  /** Replaces the IdP's signing key and certificate (an unannounced rotation). */
  rotateCertificate(): void;
  stop(): Promise<void>;
}

const php = (value: unknown): string => {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map(php).join(', ')}]`;
  return `[${Object.entries(value as Record<string, unknown>)
    .map(([k, v]) => `${php(k)} => ${php(v)}`)
    .join(', ')}]`;
};

function makeKeyPair(dir: string, base: string): void {
  selfSigned(dir, base, '/CN=SimpleSAMLphp test IdP', { days: '30', certFile: `${base}.crt` });
}

/**
 * Debian's SimpleSAMLphp 1.19 as a SAML 2.0 identity provider, nobody here wrote it: php's built-in
 * server on loopback, configured at run time in a temp folder (SIMPLESAMLPHP_CONFIG_DIR) with its own
 * key pair and the static users of the exampleauth module. It reads its configuration on every
 * request, so `trustSp` and `rotateCertificate` take effect without a restart.
 */
/** A loopback port nothing listens on now: suites running side by side never pick the same one. */
async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export async function startSimpleSamlPhp(input: {
  /** Default: a free port the system picks (php's built-in server takes no port 0). */
  port?: number;
  users: SspUser[];
  /** Hosts (with a non-default port) a logout's ReturnTo may name: our PUBLIC_URL's. */
  returnHosts?: string[];
}): Promise<SimpleSamlPhp> {
  const dir = mkdtempSync(join(tmpdir(), 'ssp-'));
  const config = join(dir, 'config');
  const metadataDir = join(dir, 'metadata');
  const certDir = join(dir, 'cert');
  for (const d of [config, metadataDir, certDir, join(dir, 'tmp'), join(dir, 'sessions'), join(dir, 'data')])
    mkdirSync(d);
  const port = input.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const entityId = `${url}/saml2/idp/metadata.php`;
  let generation = 0;
  makeKeyPair(certDir, 'idp0');

  writeFileSync(
    join(config, 'config.php'),
    `<?php\n$config = ${php({
      baseurlpath: `${url}/`,
      certdir: `${certDir}/`,
      loggingdir: `${dir}/`,
      datadir: `${dir}/data/`,
      tempdir: `${dir}/tmp`,
      metadatadir: `${metadataDir}/`,
      secretsalt: 'test-salt-not-secret-0123456789',
      'auth.adminpassword': 'not-used-admin-password',
      technicalcontact_email: 'it@example.test',
      timezone: 'UTC',
      'logging.level': 4,
      'logging.handler': 'file',
      'logging.logfile': 'simplesamlphp.log',
      'enable.saml20-idp': true,
      'module.enable': { exampleauth: true, core: true, saml: true, admin: false },
      'session.cookie.secure': false,
      'session.cookie.samesite': null,
      'session.phpsession.savepath': `${dir}/sessions`,
      'store.type': 'phpsession',
      'language.default': 'en',
      // The logout's ReturnTo is our sign-in page.
      'trusted.url.domains': input.returnHosts ?? ['localhost:8080'],
      'metadata.sources': [{ type: 'flatfile' }],
    })};\n`,
  );
  const authSource: Record<string, unknown> = { 0: 'exampleauth:UserPass' };
  for (const user of input.users) authSource[`${user.username}:${user.username}`] = user.attributes;
  writeFileSync(
    join(config, 'authsources.php'),
    `<?php\n$config = ${php({ admin: ['core:AdminPassword'], users: authSource })};\n`,
  );
  const writeIdp = () =>
    writeFileSync(
      join(metadataDir, 'saml20-idp-hosted.php'),
      `<?php\n$metadata['__DYNAMIC:1__'] = ${php({
        host: '__DEFAULT__',
        privatekey: `idp${generation}.key`,
        certificate: `idp${generation}.crt`,
        auth: 'users',
        'signature.algorithm': 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
        'sign.logout': true,
        'validate.logout': true,
        // Persistent NameIDs: the same person on every sign-in (SimpleSAMLphp derives them from uid).
        NameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
        'userid.attribute': 'uid',
        // SimpleSAMLphp makes a persistent NameID from `uid` with the targetedID filter.
        authproc: { 60: { class: 'saml:PersistentNameID', attribute: 'uid' } },
      })};\n`,
    );
  writeIdp();
  writeFileSync(join(metadataDir, 'saml20-sp-remote.php'), '<?php\n');

  // Its configuration files change during a run: no opcode cache (it would serve them up to 2 s stale).
  const child: ChildProcess = spawn(
    PHP,
    ['-d', 'opcache.enable=0', '-d', 'opcache.enable_cli=0', '-S', `127.0.0.1:${port}`, '-t', join(SSP_ROOT, 'www')],
    {
      env: { ...process.env, SIMPLESAMLPHP_CONFIG_DIR: config },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const res = await fetch(`${url}/saml2/idp/metadata.php`);
      if (res.ok) break;
      throw new Error(`metadata answered ${res.status}: ${(await res.text()).slice(0, 500)}`);
    } catch (error) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`SimpleSAMLphp did not start: ${String(error)}\n${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  const metadata = async () => (await fetch(`${url}/saml2/idp/metadata.php?output=xml`)).text();
  // The server reads metadata URLs over https only; php's built-in server speaks http, so a TLS front
  // passes SimpleSAMLphp's own metadata through (what it publishes now, a rotation included).
  const ca = testCa();
  const front = createHttpsServer({ key: ca.key, cert: ca.cert }, (request, response) => {
    if (request.url !== '/metadata') return void response.writeHead(404).end();
    metadata().then(
      (xml) => response.writeHead(200, { 'content-type': 'application/samlmetadata+xml' }).end(xml),
      () => response.writeHead(502).end(),
    );
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));

  return {
    url,
    entityId,
    metadata,
    metadataUrl: `https://127.0.0.1:${(front.address() as AddressInfo).port}/metadata`,
    trustSp(spMetadata, options = {}) {
      const entity = /entityID="([^"]+)"/.exec(spMetadata)?.[1] ?? '';
      const acs = /<(?:\w+:)?AssertionConsumerService\b[^>]*\bLocation="([^"]+)"/.exec(spMetadata)?.[1] ?? '';
      const slo = /<(?:\w+:)?SingleLogoutService\b[^>]*\bLocation="([^"]+)"/.exec(spMetadata)?.[1] ?? '';
      const cert = /<(?:\w+:)?X509Certificate[^>]*>([^<]+)</.exec(spMetadata)?.[1]?.replace(/\s+/g, '') ?? '';
      writeFileSync(
        join(metadataDir, 'saml20-sp-remote.php'),
        `<?php\n$metadata[${php(entity)}] = ${php({
          AssertionConsumerService: [
            { Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', Location: acs, index: 0 },
          ],
          SingleLogoutService: [
            { Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect', Location: slo },
            { Binding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST', Location: slo },
          ],
          certData: cert,
          'assertion.encryption': options.encrypt === true,
          'saml20.sign.assertion': true,
          'saml20.sign.response': true,
          'sign.logout': true,
          'validate.logout': true,
          'signature.algorithm': options.sha1
            ? 'http://www.w3.org/2000/09/xmldsig#rsa-sha1'
            : 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
          NameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
          'simplesaml.nameidattribute': 'uid',
          attributes: ['uid', 'email', 'Email', 'mail', 'workEmail', 'givenName', 'sn', 'FirstName', 'LastName'],
        })};\n`,
      );
    },
    tileUrl: (spEntityId) => `${url}/saml2/idp/SSOService.php?spentityid=${encodeURIComponent(spEntityId)}`,
    logoutUrl: (returnTo) => `${url}/saml2/idp/SingleLogoutService.php?ReturnTo=${encodeURIComponent(returnTo)}`,
    rotateCertificate() {
      generation += 1;
      makeKeyPair(certDir, `idp${generation}`);
      writeIdp();
    },
    async stop() {
      await new Promise((resolve) => front.close(resolve));
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (process.env.SSP_KEEP) console.log(`SimpleSAMLphp folder kept: ${dir}`);
      else rmSync(dir, { recursive: true, force: true });
    },
  };
}
