import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { serverRoot } from '../src/config.js';
import { testCa } from '../test/idp/ca.js';
import { freePort } from '../test/smtp.js';
import { ERRORS } from '@suite/contract';

/**
 * nginx's own answer when it could not get one from an instance (docs/deploy.md): the API's 503 body
 * and a Retry-After, never a bare 502/504.
 */
const UNAVAILABLE_RETRY_AFTER_S = 2;
const UNAVAILABLE_BODY = JSON.stringify({
  error_code: 'ERR_SERVICE_UNAVAILABLE',
  message: ERRORS.ERR_SERVICE_UNAVAILABLE.message,
});

/** The built server (what `npm start` runs), not the sources. */
const SERVER_JS = join(serverRoot(), 'dist/src/server.js');
const NGINX = '/usr/sbin/nginx';

/** Debian's nginx, installed when missing (the test command installs it too). */
function ensureNginx(): void {
  if (existsSync(NGINX)) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  spawnSync('apt-get', ['install', '-y', '-qq', 'nginx'], { stdio: 'inherit', env });
  if (!existsSync(NGINX)) throw new Error('nginx is missing and could not be installed');
}

/** Polls `check` until it is true, at most `timeoutMs`. */
export async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const answers = (url: string) =>
  fetch(url).then(
    (r) => r.status === 200,
    () => false,
  );

/**
 * One server process, started from the build with the shared settings. `entry`: the server file (a
 * production install's, see production-install.ts); `core`: pinned to that core with taskset (which
 * execs: the child's pid is the server's).
 */
export class Instance {
  child: ChildProcess | undefined;
  output = '';
  exited: Promise<number | null> = Promise.resolve(null);
  constructor(
    readonly name: string,
    readonly port: number,
    private readonly env: Record<string, string>,
    private readonly options: { entry?: string; core?: number } = {},
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const { entry = SERVER_JS, core } = this.options;
    const [command, args] =
      core === undefined ? [process.execPath, [entry]] : ['taskset', ['-c', String(core), process.execPath, entry]];
    const child = spawn(command, args, {
      env: {
        PATH: process.env.PATH ?? '',
        // The test identity providers' CA, trusted as an operator trusts a company CA (read at start).
        NODE_EXTRA_CA_CERTS: testCa().caFile,
        ...this.env,
        PORT: String(this.port),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout?.on('data', (c: Buffer) => (this.output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (this.output += c.toString()));
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    await until(
      () => {
        // A start failure (e.g. a package missing from the production install) is the answer, with its output.
        if (child.exitCode !== null) throw new Error(`${this.name} exited ${child.exitCode}:\n${this.output}`);
        return answers(`${this.url}/api/health/live`);
      },
      `${this.name} to listen`,
      30_000,
    );
  }

  async stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
    if (!this.child || this.child.exitCode !== null) return this.child?.exitCode ?? null;
    this.child.kill(signal);
    return this.exited;
  }
}

/** nginx in front of the instances: least_conn, failed connections passed to the next one. */
export async function startNginx(
  dir: string,
  upstreams: number[],
  options: { pinnable?: boolean; port?: number } = {},
): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  ensureNginx();
  const port = options.port ?? (await freePort());
  for (const d of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, d), { recursive: true });
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig(dir, port, upstreams, options));
  const child = spawn(NGINX, ['-e', join(dir, 'error.log'), '-p', dir, '-c', conf], { stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // nginx's own health location answers without touching the upstreams: probing through them before the
  // instances listen would mark both failed for fail_timeout (a 502 for the first real request).
  await until(
    () =>
      fetch(`http://127.0.0.1:${port}/nginx-health`).then(
        () => true,
        () => false,
      ),
    'nginx to answer',
  ).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGQUIT');
        await exited;
      }
    },
  };
}

/**
 * The configuration docs/deploy.md describes, on loopback without TLS (the tests' only difference:
 * TLS termination is left out), with paths under `dir` so that it runs without root. `pinnable`: a test
 * may send a request to one instance (0, 1…: the upstream's index) by its header `X-Suite-Test-Instance`
 * or its cookie `suite_test_instance` (the header wins; the cookie also reaches the redirects a browser
 * follows), and each answer names the instance that gave it (`X-Suite-Instance`); without them the
 * balancer picks as in production. The header `X-Suite-Test-Instance: 0+` sends to that instance first
 * with the others as backups (what nginx passes on when the first one fails).
 */
function nginxConfig(dir: string, port: number, upstreams: number[], options: { pinnable?: boolean } = {}): string {
  const asRoot = process.getuid?.() === 0;
  return `${asRoot ? 'user root;\n' : ''}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  # MAX_UPLOAD_MB plus room for the multipart envelope.
  client_max_body_size 110m;
  # No nginx version in headers and error pages.
  server_tokens off;

  upstream suite {
    least_conn;
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n')}
    keepalive 16;
  }
${
  options.pinnable
    ? `${upstreams.map((p, i) => `  upstream instance${i} {\n    server 127.0.0.1:${p};\n  }\n`).join('')}${upstreams
        .map(
          (p, i) =>
            `  upstream failover${i} {\n    server 127.0.0.1:${p};\n${upstreams
              .filter((_, j) => j !== i)
              .map((q) => `    server 127.0.0.1:${q} backup;\n`)
              .join('')}  }\n`,
        )
        .join('')}
  map "$http_x_suite_test_instance|$cookie_suite_test_instance" $upstream {
    default suite;
${upstreams.map((_, i) => `    ~^${i}\\| instance${i};\n    ~^\\|${i}$ instance${i};\n    ~^${i}\\+\\| failover${i};`).join('\n')}
  }
`
    : ''
}
  server {
    listen 127.0.0.1:${port};
    location = /nginx-health {
      return 200;
    }
    location / {
      proxy_pass http://${options.pinnable ? '$upstream' : 'suite'};${options.pinnable ? '\n      add_header X-Suite-Instance $upstream_addr always;' : ''}
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_set_header X-Request-Id $request_id;
      # An instance that refuses, times out or dies mid-request: the request goes to the other instance,
      # unless it is a POST or PATCH already sent (nginx never re-sends those; they get the 503 below).
      proxy_next_upstream error timeout http_502 http_504;
      proxy_next_upstream_tries 2;
      proxy_next_upstream_timeout 10s;
      # What nginx cannot pass on is never a bare 502/504: the API's 503 with Retry-After, which clients
      # that honour it retry.
      error_page 502 504 =503 @unavailable;
      proxy_connect_timeout 2s;
      proxy_read_timeout 120s;
      proxy_send_timeout 120s;
      # Uploads stream through to the server instead of being spooled to nginx's disk first.
      proxy_request_buffering off;
    }
    location @unavailable {
      default_type application/json;
      add_header Retry-After ${UNAVAILABLE_RETRY_AFTER_S} always;
      return 503 '${UNAVAILABLE_BODY}';
    }
    # With METRICS_TOKEN set the instances are scraped directly, never through the balancer.
    location = /metrics {
      return 404;
    }
  }
}
`;
}

/** An answer of the API as a test reads it: status, headers, and the body parsed (or its text). */
export interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}
/** A call to an instance's (or the balancer's) API, as a browser would make it. */
export async function api(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${base}/api${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let parsed: Record<string, unknown> = {};
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { text };
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
