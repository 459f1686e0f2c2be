import type { FastifyInstance } from 'fastify';

/** Where a walk through the pages ended: one of our web pages (not served in the API tests). */
export interface Landing {
  url: URL;
  /** Every SAML message this browser carried by a form post, in order (base64), e.g. to look inside. */
  posted: { name: string; value: string; action: string }[];
  /** The page's HTML when it ended on a provider's page without a form (e.g. "you are signed out"). */
  html?: string;
}

const decode = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#039;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

/**
 * A person with a browser, as plain HTTP: follows redirects, keeps cookies per host, submits the
 * SAML auto-post forms (HTTP-POST binding) and fills a provider's user-name/password form. Requests to
 * our API (PUBLIC_URL/api/…) go to the app under test by inject; it stops on any other page of ours
 * (/auth, /user/login, /login-error-sso) and says where.
 */
export class TestBrowser {
  private readonly jars = new Map<string, Map<string, string>>();
  /** How many times a provider asked this browser for its password (its session was not enough). */
  asked = 0;
  constructor(
    /** The app under test, answered by inject; null: our origin is a real server (the two-instance suite). */
    private readonly app: FastifyInstance | null,
    private readonly publicUrl: string,
    private readonly login: { username: string; password: string },
  ) {}

  signInAs(username: string): void {
    this.login.username = username;
    this.login.password = username;
  }

  private jar(origin: string) {
    let jar = this.jars.get(origin);
    if (!jar) this.jars.set(origin, (jar = new Map()));
    return jar;
  }

  private keep(origin: string, lines: string[]) {
    for (const line of lines) {
      const [pair] = line.split(';');
      const [name, ...value] = (pair ?? '').split('=');
      if (!name) continue;
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line)) this.jar(origin).delete(name.trim());
      else this.jar(origin).set(name.trim(), value.join('='));
    }
  }

  private cookie(origin: string) {
    return [...this.jar(origin)].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  /** The binding cookie our start set (the /auth page's exchange sends it). */
  ourCookie(): string {
    return this.cookie(new URL(this.publicUrl).origin);
  }

  /** This browser's cookies for another site (a provider's session). */
  cookiesOf(url: string): string {
    return this.cookie(new URL(url).origin);
  }

  async go(start: string, form?: URLSearchParams): Promise<Landing> {
    const posted: Landing['posted'] = [];
    const ours = new URL(this.publicUrl).origin;
    let url = new URL(start, this.publicUrl);
    let body = form;
    for (let hop = 0; hop < 25; hop += 1) {
      let status: number;
      let location: string | null;
      let html: string;
      if (url.origin === ours && !url.pathname.startsWith('/api/')) return { url, posted };
      if (url.origin === ours && this.app) {
        const res = await this.app.inject({
          method: body ? 'POST' : 'GET',
          url: `${url.pathname}${url.search}`,
          headers: {
            cookie: this.cookie(ours),
            ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
          ...(body ? { payload: body.toString() } : {}),
        });
        this.keep(ours, [res.headers['set-cookie'] ?? []].flat().map(String));
        status = res.statusCode;
        location = res.headers.location ? String(res.headers.location) : null;
        html = res.body;
      } else {
        const res = await fetch(url, {
          method: body ? 'POST' : 'GET',
          redirect: 'manual',
          headers: {
            cookie: this.cookie(url.origin),
            ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          },
          ...(body ? { body: body.toString() } : {}),
        });
        this.keep(url.origin, res.headers.getSetCookie());
        status = res.status;
        location = res.headers.get('location');
        html = await res.text();
      }
      body = undefined;
      if (status >= 300 && status < 400 && location) {
        url = new URL(location, url);
        continue;
      }
      const formTag = /<form\b[^>]*>/i.exec(html)?.[0] ?? '';
      const action = decode(/action="([^"]*)"/i.exec(formTag)?.[1] ?? '');
      const hidden = [...html.matchAll(/<input\b[^>]*type="hidden"[^>]*>/gi)].map((m) => m[0]);
      const fields = new URLSearchParams();
      for (const input of hidden) {
        const name = /name="([^"]*)"/i.exec(input)?.[1];
        if (name) fields.set(decode(name), decode(/value="([^"]*)"/i.exec(input)?.[1] ?? ''));
      }
      if (status === 200 && (fields.has('SAMLResponse') || fields.has('SAMLRequest'))) {
        for (const name of ['SAMLResponse', 'SAMLRequest'])
          if (fields.has(name)) posted.push({ name, value: fields.get(name)!, action });
        url = new URL(action, url);
        body = fields;
        continue;
      }
      if (status === 200 && /name="xsrf"/i.test(html) && /name="logout"/i.test(html)) {
        // An OpenID provider's "Do you want to sign out?" page: yes.
        fields.set('logout', 'yes');
        url = new URL(action, url);
        body = fields;
        continue;
      }
      if (status === 200 && /name="login"/i.test(html) && /name="password"/i.test(html)) {
        // panva's oidc-provider's development sign-in page: any login, any password.
        this.asked += 1;
        fields.set('login', this.login.username);
        fields.set('password', 'any');
        url = new URL(action, url);
        body = fields;
        continue;
      }
      if (status === 200 && /name="password"/i.test(html)) {
        this.asked += 1;
        fields.set('username', this.login.username);
        fields.set('password', this.login.password);
        url = new URL(action === '?' || action === '' ? url.href : action, url);
        body = fields;
        continue;
      }
      if (status === 200 && !formTag) return { url, posted, html };
      throw new Error(`page ${url.href}: ${status} ${html.replace(/\s+/g, ' ').slice(0, 600)}`);
    }
    throw new Error(`too many hops from ${start}`);
  }
}
