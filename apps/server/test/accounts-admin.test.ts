import { describe, expect, it } from 'vitest';
import { runAdmin } from '../bin/admin.js';
import { admin, confirmed, signup, useWorld } from './accounts-helpers.js';

describe('admin CLI (npm run admin -- ...)', () => {
  const w = useWorld();

  const env = () => ({
    DATA_DIR: w.t.dataDir,
    DATABASE_URL: w.t.config.databaseUrl ?? '',
    SESSION_SECRET: w.t.config.sessionSecret,
  });
  async function failing(...argv: string[]): Promise<{ code: number; output: string }> {
    const lines: string[] = [];
    const code = await runAdmin(argv, env(), (l) => lines.push(l));
    return { code, output: lines.join('\n') };
  }

  it('sets every domain rule and lists the domains', async () => {
    const out = await admin(
      w,
      'domain',
      'set',
      'Example.COM.',
      '--inactive',
      '--mail-server-hosted',
      '--sso-only',
      '--free-limit',
      '3',
    );
    expect(out).toBe('example.com: INACTIVE, mail-server hosted, SSO only, free limit 3, trusted browsers allowed');
    await admin(
      w,
      'domain',
      'set',
      'example.com',
      '--active',
      '--not-mail-server-hosted',
      '--password-login',
      '--no-free-limit',
    );
    expect(await admin(w, 'domain', 'list')).toContain(
      'example.com: active, not mail-server hosted, password login, free limit none, trusted browsers allowed',
    );
    const row = await w.app.db.kysely
      .selectFrom('domains')
      .selectAll()
      .where('name', '=', 'example.com')
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ active: 1, mail_server_hosted: 0, sso_only: 0, free_plan_limit: null });
  });

  it('lists users with their state, optionally by domain', async () => {
    await confirmed(w, 'listed@contoso.com');
    await signup(w, 'waiting@fabrikam.com');
    const all = await admin(w, 'users', 'list');
    expect(all).toMatch(/listed@contoso\.com\tyes\tno\tyes\t/);
    expect(all).toMatch(/waiting@fabrikam\.com\tno\tno\tyes\t/);
    const one = await admin(w, 'users', 'list', '--domain', 'fabrikam.com');
    expect(one).not.toContain('listed@contoso.com');
    expect(one).toContain('1 user(s)');
  });

  it('explains wrong usage with exit code 2 and changes nothing', async () => {
    for (const argv of [
      [],
      ['domain', 'set', 'example.com'],
      ['domain', 'set', 'not a domain', '--inactive'],
      ['domain', 'set', 'example.com', '--active', '--inactive'],
      ['domain', 'set', 'example.com', '--free-limit', '-1'],
      ['domain', 'set', 'example.com', '--bogus'],
      ['users', 'deactivate', 'nobody@contoso.com'],
      ['invite', 'not-an-email'],
      ['frobnicate'],
    ]) {
      const { code, output } = await failing(...argv);
      expect(code, argv.join(' ')).toBe(2);
      expect(output).toContain('Usage: npm run admin');
    }
    expect((await failing('help')).code).toBe(0);
  });

  it('refuses wrong single-sign-on settings with their cause, exit code 2, and changes nothing', async () => {
    /** A complete OIDC connection: each case adds the one setting that is wrong. */
    const OIDC = [
      'sso',
      'set',
      'sso.example',
      '--oidc',
      '--issuer',
      'https://idp.example/',
      '--client-id',
      'a',
      '--client-secret',
      'b',
    ];
    const cases: [string[], string][] = [
      [
        OIDC.map((arg) => (arg === 'https://idp.example/' ? 'http://idp.example/' : arg)),
        "--issuer must be the provider's https:// issuer URL",
      ],
      [[...OIDC, '--domains', 'ok.example,not a domain'], 'not a domain name: not a domain'],
      [[...OIDC, '--email-attribute', 'has space'], '--email-attribute must be an attribute or claim name'],
      [[...OIDC, '--allow-sha1'], '--allow-sha1 and --entity-id are for --saml'],
      [
        ['sso', 'set', 'sso.example', '--saml', '--metadata', '/nonexistent/idp.xml', '--trust-email'],
        '--trust-email is for --oidc',
      ],
      [
        ['sso', 'set', 'sso.example', '--saml', '--metadata', '/nonexistent/idp.xml'],
        'metadata: cannot read /nonexistent/idp.xml: Error: ENOENT',
      ],
      [['sso', 'set', 'sso.example', '--saml', '--metadata', 'http://idp.example/metadata'], 'use https:// or a file'],
      [['sso', 'refresh', 'sso.example'], 'no single-sign-on connection for sso.example'],
      [['sso', 'test', 'sso.example'], 'no single-sign-on connection for sso.example'],
    ];
    for (const [argv, cause] of cases) {
      const { code, output } = await failing(...argv);
      expect(code, argv.join(' ')).toBe(2);
      expect(output, argv.join(' ')).toContain(cause);
    }
    expect(await w.app.db.kysely.selectFrom('sso_connections').select('domain').execute()).toEqual([]);
  });

  it('sso refresh of a connection set from a file says why it cannot, with exit code 1', async () => {
    await admin(
      w,
      'sso',
      'set',
      'file.example',
      '--oidc',
      '--issuer',
      'https://idp.example/realms/x/',
      '--client-id',
      'a',
      '--client-secret',
      'b',
      '--domains',
      'more.example',
    );
    const shown = await admin(w, 'sso', 'show', 'more.example');
    // The issuer exactly as given, trailing slash included; both domains with their start URL.
    expect(shown).toContain('issuer: https://idp.example/realms/x/\n');
    expect(shown).toContain('domains: file.example, more.example');
    expect(shown).toContain('start URL (portal or app tile) for more.example: ');
    const { code, output } = await failing('sso', 'refresh', 'file.example');
    expect(code).toBe(1);
    expect(output).toContain(
      'file.example has no metadata URL to read (OpenID Connect reads its discovery document itself)',
    );
    // Removing a further domain keeps the connection.
    expect(await admin(w, 'sso', 'remove', 'more.example')).toContain('more.example');
    expect(await admin(w, 'sso', 'show', 'file.example')).toContain('domains: file.example\n');
    await admin(w, 'sso', 'remove', 'file.example');
  });

  it('reports a bad configuration with exit code 2', async () => {
    const lines: string[] = [];
    const code = await runAdmin(['users', 'list'], { ...env(), DATABASE_URL: 'mysql://x' }, (l) => lines.push(l));
    expect(code).toBe(2);
    expect(lines.join('\n')).toContain('DATABASE_URL');
  });
});
