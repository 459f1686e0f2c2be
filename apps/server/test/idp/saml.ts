import { createServer, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import * as samlifyNamespace from 'samlify';

/** samlify is CommonJS with getter exports, which some module loaders' namespace objects miss: use its exports object. */
const samlify = (samlifyNamespace as unknown as { default?: typeof samlifyNamespace }).default ?? samlifyNamespace;
import { DOMParser } from '@xmldom/xmldom';
import { extraKeys, testCa } from './ca.js';

// The test IdP reads our AuthnRequest only to answer it; what is under test is the service provider's
// validation (node-saml in the server), so a well-formedness check is enough here (no XSD engine).
samlify.setSchemaValidator({
  validate: async (xml: string) => {
    const errors: string[] = [];
    new DOMParser({
      errorHandler: { error: (m: string) => errors.push(m), fatalError: (m: string) => errors.push(m) },
    }).parseFromString(xml, 'text/xml');
    if (errors.length > 0) throw new Error(errors.join('; '));
    return 'well-formed';
  },
});

/** What a test changes in the answer the IdP signs (times in seconds from now). */
export interface SamlAnswer {
  email: string;
  givenName?: string;
  surname?: string;
  /** Conditions and subject confirmation end this many seconds from now (default 300). */
  validForS?: number;
  /** Conditions begin this many seconds from now (default 0). */
  notBeforeS?: number;
  audience?: string;
  statusCode?: string;
  inResponseTo?: string;
  /** A wrong Destination on the response, Recipient on the subject confirmation, or Issuer (both). */
  destination?: string;
  recipient?: string;
  issuer?: string;
  /** The NameID and its format (default: the address, emailAddress). */
  nameId?: string;
  nameIdFormat?: string;
  /**
   * When the person authenticated at the IdP, in seconds from now (default 0: just now, as after
   * ForceAuthn); null leaves the AuthnStatement out, as a non-conforming IdP would.
   */
  authnInstantS?: number | null;
  /** The attributes sent instead of email/givenName/sn (an empty list: no AttributeStatement at all). */
  attributes?: [string, string][];
  /**
   * How the response is signed: 'sha1' with RSA-SHA1 and SHA-1 digests (as old IdPs do), 'second-key'
   * with the IdP's next key pair (a rotation), 'short-key' with a certificate that ends in 10 days.
   */
  signing?: 'sha1' | 'second-key' | 'short-key';
}

/** Which certificates the IdP's metadata (and its https metadata URL) publishes. */
export type PublishedKeys = 'first' | 'first-and-second' | 'second' | 'short';

export interface TestSamlIdp {
  url: string;
  entityId: string;
  metadata: string;
  /** The metadata over https on loopback (the test CA), publishing what `publish` last chose. */
  metadataUrl: string;
  /** Changes the certificates the metadata URL publishes (a rotation, announced or not). */
  publish(keys: PublishedKeys): void;
  /** The metadata publishing `keys` (for a file). */
  metadataOf(keys: PublishedKeys): string;
  /** Merged into the answers of the browser sign-in page (e.g. no address in it, as a misconfigured IdP). */
  browserAnswer: Partial<SamlAnswer>;
  /** The request ID of a redirect to our IdP (the SP-initiated AuthnRequest). */
  requestIdOf(redirectUrl: string): Promise<string>;
  /** A signed SAMLResponse (base64) answering request `requestId`, as the IdP posts it to the ACS. */
  answer(requestId: string, answer: SamlAnswer): Promise<string>;
  stop(): Promise<void>;
}

const escapeXml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);

const attributes = (answer: SamlAnswer) =>
  answer.attributes?.length === 0
    ? ''
    : '<saml:AttributeStatement>' +
      (
        answer.attributes ?? [
          ['email', answer.email],
          ['givenName', answer.givenName ?? 'Grace'],
          ['sn', answer.surname ?? 'Hopper'],
        ]
      )
        .map(
          ([name, value]) =>
            `<saml:Attribute Name="${name}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic"><saml:AttributeValue xsi:type="xs:string">${escapeXml(value!)}</saml:AttributeValue></saml:Attribute>`,
        )
        .join('') +
      '</saml:AttributeStatement>';

/** When and how the person authenticated (mandatory in the Web SSO profile); none when asked to leave it out. */
const authnStatement = (answer: SamlAnswer, at: (s: number) => string, sessionIndex: string) =>
  answer.authnInstantS === null
    ? ''
    : `<saml:AuthnStatement AuthnInstant="${at(answer.authnInstantS ?? 0)}" SessionIndex="${sessionIndex}">` +
      '<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>' +
      '</saml:AuthnStatement>';

/**
 * A SAML 2.0 identity provider (samlify in IdP mode) on a random loopback port, signing real
 * assertions (RSA-SHA256) with a throwaway key. It reads the service provider from our own metadata
 * (`spMetadata`). For a browser: GET /sso (HTTP-Redirect binding) shows a sign-in page with the address;
 * its button posts the signed response to our ACS (HTTP-POST binding), "Cancel" posts a refusal.
 */
export async function startSamlIdp(spMetadata: () => Promise<string>): Promise<TestSamlIdp> {
  const ca = testCa();
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${url}/metadata`;
  const extra = extraKeys();
  const keys = {
    first: { privateKey: ca.samlKey, cert: ca.samlCert },
    second: { privateKey: extra.samlKey2, cert: extra.samlCert2 },
    short: { privateKey: extra.samlShortKey, cert: extra.samlShortCert },
  };
  const idpWith = (key: { privateKey: string; cert: string }, signingCert: string | string[], sha1 = false) =>
    samlify.IdentityProvider({
      entityID: entityId,
      privateKey: key.privateKey,
      signingCert: signingCert as string,
      isAssertionEncrypted: false,
      wantAuthnRequestsSigned: false,
      ...(sha1 ? { requestSignatureAlgorithm: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1' } : {}),
      nameIDFormat: ['urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress'],
      singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: `${url}/sso` }],
    });
  const idp = idpWith(keys.first, keys.first.cert);
  const signers = {
    sha1: idpWith(keys.first, keys.first.cert, true),
    'second-key': idpWith(keys.second, keys.second.cert),
    'short-key': idpWith(keys.short, keys.short.cert),
  };
  const metadataOf = (published: PublishedKeys) =>
    (published === 'first'
      ? idp
      : published === 'second'
        ? signers['second-key']
        : published === 'short'
          ? signers['short-key']
          : idpWith(keys.first, [keys.first.cert, keys.second.cert])
    ).getMetadata();
  let published: PublishedKeys = 'first';
  const browserAnswer: Partial<SamlAnswer> = {};
  const metadataServer = createHttpsServer({ key: ca.key, cert: ca.cert }, (request, response) => {
    if (request.url !== '/metadata') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/samlmetadata+xml' });
    response.end(metadataOf(published));
  });
  await new Promise<void>((resolve) => metadataServer.listen(0, '127.0.0.1', resolve));
  const metadataUrl = `https://127.0.0.1:${(metadataServer.address() as AddressInfo).port}/metadata`;
  let sp: ReturnType<typeof samlifyNamespace.ServiceProvider> | undefined;
  let acsUrl = '';
  const serviceProvider = async () => {
    if (!sp) {
      const metadata = await spMetadata();
      acsUrl = /<(?:\w+:)?AssertionConsumerService\b[^>]*\bLocation="([^"]+)"/.exec(metadata)?.[1] ?? '';
      sp = samlify.ServiceProvider({ metadata });
    }
    return sp;
  };

  async function requestIdOf(redirectUrl: string): Promise<string> {
    const query = Object.fromEntries(new URL(redirectUrl).searchParams);
    const parsed = await idp.parseLoginRequest(await serviceProvider(), 'redirect', { query } as never);
    return String((parsed.extract as { request: { id: string } }).request.id);
  }

  async function answer(requestId: string, a: SamlAnswer): Promise<string> {
    const target = await serviceProvider();
    const now = Date.now();
    const at = (s: number) => new Date(now + s * 1000).toISOString();
    const acs = acsUrl;
    const result = await (a.signing ? signers[a.signing] : idp).createLoginResponse(
      target,
      { extract: { request: { id: requestId } } } as never,
      'post',
      { email: a.email },
      {
        customTagReplacement: (template: string) => {
          const id = `_${randomUUID()}`;
          // Markup goes in before the tag replacement, which escapes every value it puts in.
          const markup = template
            .replace('{AttributeStatement}', attributes(a))
            .replace('{AuthnStatement}', authnStatement(a, at, id));
          const context = samlify.SamlLib.replaceTagsByValue(markup, {
            ID: id,
            AssertionID: `_${randomUUID()}`,
            Destination: a.destination ?? acs,
            Audience: a.audience ?? target.entityMeta.getEntityID(),
            EntityID: target.entityMeta.getEntityID(),
            SubjectRecipient: a.recipient ?? acs,
            Issuer: a.issuer ?? entityId,
            IssueInstant: at(a.notBeforeS ?? 0),
            AssertionConsumerServiceURL: acs,
            StatusCode: a.statusCode ?? samlify.Constants.StatusCode.Success,
            ConditionsNotBefore: at(a.notBeforeS ?? 0),
            ConditionsNotOnOrAfter: at(a.validForS ?? 300),
            SubjectConfirmationDataNotOnOrAfter: at(a.validForS ?? 300),
            NameIDFormat: a.nameIdFormat ?? 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
            NameID: a.nameId ?? a.email,
            InResponseTo: a.inResponseTo ?? requestId,
          });
          return { id, context };
        },
      },
    );
    return (result as { context: string }).context;
  }

  const page = (body: string) =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test IdP sign-in</title></head><body>${body}</body></html>`;
  const readForm = (request: IncomingMessage) =>
    new Promise<URLSearchParams>((resolve) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => resolve(new URLSearchParams(body)));
    });

  server.on('request', (request, response) => {
    void (async () => {
      const here = new URL(request.url ?? '/', url);
      if (here.pathname === '/sso' && request.method === 'GET') {
        const requestId = await requestIdOf(here.href);
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(
          page(
            `<h1>Test IdP</h1><form method="post" action="/login"><input type="hidden" name="request" value="${escapeXml(requestId)}">` +
              `<label>E-mail <input name="email" type="email" required></label> <label>Password <input name="password" type="password"></label>` +
              `<button type="submit" name="action" value="sign-in">Sign in</button> <button type="submit" name="action" value="cancel" formnovalidate>Cancel</button></form>`,
          ),
        );
        return;
      }
      if (here.pathname === '/login' && request.method === 'POST') {
        const form = await readForm(request);
        const requestId = form.get('request') ?? '';
        const cancelled = form.get('action') === 'cancel';
        const saml = await answer(requestId, {
          email: form.get('email') || 'nobody@example.invalid',
          ...browserAnswer,
          ...(cancelled ? { statusCode: samlify.Constants.StatusCode.Requester } : {}),
        });
        const acs = acsUrl;
        response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        response.end(
          page(
            `<form id="post" method="post" action="${escapeXml(acs)}"><input type="hidden" name="SAMLResponse" value="${escapeXml(saml)}">` +
              `<button type="submit">Continue to the application</button></form><script>document.getElementById('post').submit()</script>`,
          ),
        );
        return;
      }
      if (here.pathname === '/metadata') {
        response.writeHead(200, { 'content-type': 'application/samlmetadata+xml' });
        response.end(idp.getMetadata());
        return;
      }
      response.writeHead(404).end();
    })().catch((error: unknown) => {
      if (process.env.IDP_DEBUG) console.error('IDP', error);
      if (!response.headersSent) response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
    });
  });

  return {
    url,
    entityId,
    metadata: idp.getMetadata(),
    metadataUrl,
    browserAnswer,
    publish: (keys: PublishedKeys) => void (published = keys),
    metadataOf,
    requestIdOf,
    answer,
    stop: async () => {
      metadataServer.closeAllConnections();
      await new Promise<void>((resolve) => metadataServer.close(() => resolve()));
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
    },
  };
}
