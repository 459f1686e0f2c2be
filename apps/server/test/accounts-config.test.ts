import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, serverRoot } from '../src/config.js';
import { configProblems } from './helpers.js';

const dataDir = mkdtempSync(join(tmpdir(), 'suite-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const load = (env: Record<string, string>) => loadConfig({ DATA_DIR: dataDir, ...env });
const problemsOf = (env: Record<string, string>) => configProblems(dataDir, env);

describe('TRUST_PROXY', () => {
  it('is off when unset, empty or false', () => {
    expect(load({}).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
  });

  it('takes a hop count: the socket peer and hops-1 entries before it are proxies', () => {
    const trust = load({ TRUST_PROXY: '2' }).trustProxy;
    expect(typeof trust).toBe('function');
    if (typeof trust !== 'function') return;
    expect([0, 1, 2].map((hop) => trust('203.0.113.1', hop))).toEqual([true, true, false]);
  });

  it('takes a comma list of addresses and CIDRs', () => {
    expect(load({ TRUST_PROXY: '10.0.0.1, 192.168.0.0/16,::1,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.1',
      '192.168.0.0/16',
      '::1',
      'fd00::/8',
    ]);
  });

  it('refuses true (it would trust the forgeable left-most entry) and anything that is not an address', () => {
    const [problem] = problemsOf({ TRUST_PROXY: 'true' });
    expect(problem).toMatch(/^TRUST_PROXY: .*left-most X-Forwarded-For.*number of proxy hops.*addresses/);
    expect(problemsOf({ TRUST_PROXY: 'loopback' })[0]).toMatch(/^TRUST_PROXY: .*not: loopback/);
    expect(problemsOf({ TRUST_PROXY: '10.0.0.0/33' })[0]).toMatch(/^TRUST_PROXY:/);
    expect(problemsOf({ TRUST_PROXY: '10.0.0.1,nope' })[0]).toMatch(/not: nope/);
  });
});

describe('MAIL_FROM, MAIL_REPLY_TO, MAIL_ENVELOPE_FROM', () => {
  const production = {
    NODE_ENV: 'production',
    SESSION_SECRET: 'x'.repeat(32),
    PUBLIC_URL: 'https://suite.example.com',
  };
  it('MAIL_FROM is required in production whenever SMTP_URL is set', () => {
    expect(problemsOf({ ...production, SMTP_URL: 'smtp://relay.example.com' })).toEqual([
      expect.stringMatching(/^MAIL_FROM: required with SMTP_URL when NODE_ENV=production .*no-reply@localhost/),
    ]);
    expect(problemsOf(production)).toEqual([]);
    expect(problemsOf({ SMTP_URL: 'smtp://relay.example.com' })).toEqual([]);
  });

  it('takes an address with or without a display name; the bounce address bare', () => {
    const mail = load({
      MAIL_FROM: '"Suite" <no-reply@suite.example.com>',
      MAIL_REPLY_TO: 'Support <support@example.com>',
      MAIL_ENVELOPE_FROM: 'bounces@suite.example.com',
    }).mail;
    expect(mail).toEqual({
      from: '"Suite" <no-reply@suite.example.com>',
      replyTo: 'Support <support@example.com>',
      envelopeFrom: 'bounces@suite.example.com',
    });
    expect(problemsOf({ MAIL_FROM: 'nobody', MAIL_ENVELOPE_FROM: 'Bounces <b@example.com>' })).toEqual([
      expect.stringMatching(/^MAIL_FROM: must be an address/),
      expect.stringMatching(/^MAIL_ENVELOPE_FROM: must be a bare address/),
    ]);
  });
});

describe('PUBLIC_URL', () => {
  it('is required when NODE_ENV=production, with a message saying what to set', () => {
    expect(problemsOf({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) })).toEqual([
      expect.stringMatching(/^PUBLIC_URL: required when NODE_ENV=production/),
    ]);
    expect(
      load({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), PUBLIC_URL: 'https://suite.example.com/' })
        .publicUrl,
    ).toBe('https://suite.example.com');
  });

  it('defaults to localhost in development and when NODE_ENV is unset (npm start)', () => {
    expect(load({}).publicUrl).toBe('http://localhost:8080');
    expect(load({ NODE_ENV: 'development', PORT: '9000' }).publicUrl).toBe('http://localhost:9000');
  });
});

describe('admin CLI entry point (bin/admin.ts, as `npm run admin` runs it, from source)', () => {
  const run = promisify(execFile);
  const admin = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', '--conditions=source', 'bin/admin.ts', ...args], {
      cwd: serverRoot(),
      env: { PATH: process.env.PATH ?? '', DATA_DIR: join(dataDir, 'cli'), SESSION_SECRET: 'x'.repeat(32) },
    });

  it('changes a domain rule, lists it, and exits 2 with the usage on a wrong command', async () => {
    await admin('domain', 'set', 'Closed.Example.COM.', '--inactive', '--free-limit', '3');
    const { stdout } = await admin('domain', 'list');
    expect(stdout).toMatch(/closed\.example\.com: INACTIVE.*limit 3/i);
    const wrong = await admin('domain', 'frobnicate').catch((error: { code: number; stderr: string }) => error);
    expect(wrong).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage: npm run admin') });
  }, 30_000);
});
