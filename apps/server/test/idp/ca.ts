import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A throwaway certificate authority for the test identity providers (HTTPS on loopback): made once per
 * machine with Debian's openssl, under the system temp folder. The server under test trusts it through
 * NODE_EXTRA_CA_CERTS (set by the suites' configs before any server process starts), as an operator
 * would trust a company CA. Also an RSA key and self-signed certificate for the SAML IdP's signatures.
 */
export interface TestCa {
  caFile: string;
  /** TLS key and certificate for 127.0.0.1 and localhost, signed by the CA. */
  key: string;
  cert: string;
  /** The SAML IdP's signing key and certificate (PEM). */
  samlKey: string;
  samlCert: string;
}

const dir = join(tmpdir(), 'suite-test-ca-v1');

function openssl(args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

/**
 * In folder `cwd`, a new RSA key `<name>.key` and a self-signed certificate for it (SHA-256), `<name>.pem`
 * unless `certFile` names it; valid `days` (ten years unless said), with openssl's `extra` options.
 */
export function selfSigned(
  cwd: string,
  name: string,
  subject: string,
  { days = '3650', certFile = `${name}.pem`, extra = [] as string[] } = {},
): void {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-sha256',
      '-keyout',
      `${name}.key`,
      '-out',
      certFile,
      '-days',
      days,
      '-subj',
      subject,
      ...extra,
    ],
    { cwd, stdio: 'pipe' },
  );
}

export function testCa(): TestCa {
  const files = ['ca.pem', 'server.key', 'server.pem', 'saml.key', 'saml.pem'];
  if (!files.every((f) => existsSync(join(dir, f)))) {
    mkdirSync(dir, { recursive: true });
    selfSigned(dir, 'ca', '/CN=Suite test CA');
    openssl([
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
      '-subj',
      '/CN=127.0.0.1',
    ]);
    writeFileSync(join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n');
    openssl([
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '3650',
      '-extfile',
      'san.ext',
    ]);
    selfSigned(dir, 'saml', '/CN=Suite test SAML IdP');
  }
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  return {
    caFile: join(dir, 'ca.pem'),
    key: read('server.key'),
    cert: read('server.pem'),
    samlKey: read('saml.key'),
    samlCert: read('saml.pem'),
  };
}

/** Key pairs beside the CA's: a SAML IdP's next signing key, one ending soon, a TLS server nobody trusts. */
export interface ExtraKeys {
  /** A second SAML signing key and certificate (a rotation). */
  samlKey2: string;
  samlCert2: string;
  /** A SAML signing certificate that ends in 10 days (the 30-day warning). */
  samlShortKey: string;
  samlShortCert: string;
  /** A self-signed TLS certificate for 127.0.0.1, under no CA the server trusts. */
  selfSignedKey: string;
  selfSignedCert: string;
}

/**
 * Made once per machine beside the CA, in a folder of their own: written to a temporary folder and
 * renamed into place, so that two suites starting together never read half-written files. The
 * short-lived certificate is made anew when it has less than 5 days left.
 */
export function extraKeys(): ExtraKeys {
  const final = join(tmpdir(), 'suite-test-keys-v1');
  const read = (f: string) => readFileSync(join(final, f), 'utf8');
  const fresh = () => {
    if (!existsSync(join(final, 'short.pem'))) return false;
    const end = Date.parse(new X509Certificate(read('short.pem')).validTo);
    return end - Date.now() > 5 * 24 * 3600_000;
  };
  if (!fresh()) {
    const work = mkdtempSync(join(tmpdir(), 'suite-test-keys-'));
    selfSigned(work, 'saml2', '/CN=Suite test SAML IdP (next key)');
    selfSigned(work, 'short', '/CN=Suite test SAML IdP (ending soon)', { days: '10' });
    selfSigned(work, 'tls', '/CN=127.0.0.1', { extra: ['-addext', 'subjectAltName=IP:127.0.0.1'] });
    rmSync(final, { recursive: true, force: true });
    try {
      renameSync(work, final);
    } catch {
      // Another suite renamed its folder first: use that one.
      rmSync(work, { recursive: true, force: true });
    }
  }
  return {
    samlKey2: read('saml2.key'),
    samlCert2: read('saml2.pem'),
    samlShortKey: read('short.key'),
    samlShortCert: read('short.pem'),
    selfSignedKey: read('tls.key'),
    selfSignedCert: read('tls.pem'),
  };
}
