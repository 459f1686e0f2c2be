import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
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

export function testCa(): TestCa {
  const files = ['ca.pem', 'server.key', 'server.pem', 'saml.key', 'saml.pem'];
  if (!files.every((f) => existsSync(join(dir, f)))) {
    mkdirSync(dir, { recursive: true });
    openssl([
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '3650',
      '-subj',
      '/CN=Suite test CA',
    ]);
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
    openssl([
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'saml.key',
      '-out',
      'saml.pem',
      '-days',
      '3650',
      '-subj',
      '/CN=Suite test SAML IdP',
    ]);
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
