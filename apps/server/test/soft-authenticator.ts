import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/** The little CBOR (RFC 8949) an authenticator writes: unsigned/negative ints, byte and text strings, maps. */
type Cbor = number | string | Uint8Array | Map<number | string, Cbor>;
function cbor(value: Cbor): Buffer {
  const head = (major: number, n: number) => {
    if (n < 24) return Buffer.from([(major << 5) | n]);
    if (n < 256) return Buffer.from([(major << 5) | 24, n]);
    const b = Buffer.alloc(3);
    b[0] = (major << 5) | 25;
    b.writeUInt16BE(n, 1);
    return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') return Buffer.concat([head(3, Buffer.byteLength(value)), Buffer.from(value)]);
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

/**
 * A software WebAuthn authenticator for the server suites: a real P-256 key pair, real authenticator
 * data, attestation ("none") and ES256 assertions, checked by the server's real verification. What a
 * browser adds (clientDataJSON: type, challenge, origin) is made here too, so a test can answer for
 * another origin or RP ID, replay, or turn the signature counter back.
 */
export class SoftAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  counter = 0;
  userHandle: string | undefined;

  constructor(
    readonly rpId = 'localhost',
    readonly origin = 'http://localhost:8080',
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.publicJwk = { x: jwk.x!, y: jwk.y! };
  }

  get id(): string {
    return this.credentialId.toString('base64url');
  }

  private authData(rpId: string, flags: number, attested?: Uint8Array): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([
      createHash('sha256').update(rpId).digest(),
      Buffer.from([flags]),
      counter,
      ...(attested ? [Buffer.from(attested)] : []),
    ]);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** The answer to registration options (`options.challenge`, `options.user.id`). */
  register(
    options: { challenge: string; user: { id: string } },
    over: { origin?: string; rpId?: string; uv?: boolean } = {},
  ) {
    this.userHandle = options.user.id;
    const cose = new Map<number, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, Buffer.from(this.publicJwk.x, 'base64url')],
      [-3, Buffer.from(this.publicJwk.y, 'base64url')],
    ]);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, cbor(cose)]);
    // UP | UV | AT (BE|BS: a synced passkey)
    const flags = 0x01 | (over.uv === false ? 0 : 0x04) | 0x40 | 0x08 | 0x10;
    const authData = this.authData(over.rpId ?? this.rpId, flags, attested);
    const attestationObject = cbor(
      new Map<string, Cbor>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', authData],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: this.clientData('webauthn.create', options.challenge, over.origin ?? this.origin).toString(
          'base64url',
        ),
        attestationObject: Buffer.from(attestationObject).toString('base64url'),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }

  /** An assertion for `challenge`; the counter moves forward first unless `counter` is given. */
  assert(
    challenge: string,
    over: { origin?: string; rpId?: string; counter?: number; userHandle?: string; uv?: boolean } = {},
  ) {
    this.counter = over.counter ?? this.counter + 1;
    const authData = this.authData(over.rpId ?? this.rpId, 0x01 | (over.uv === false ? 0 : 0x04) | 0x08 | 0x10);
    const clientDataJSON = this.clientData('webauthn.get', challenge, over.origin ?? this.origin);
    const signed = Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]);
    const signature = sign('sha256', signed, this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      response: {
        clientDataJSON: clientDataJSON.toString('base64url'),
        authenticatorData: authData.toString('base64url'),
        signature: signature.toString('base64url'),
        ...((over.userHandle ?? this.userHandle) ? { userHandle: over.userHandle ?? this.userHandle } : {}),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform' as const,
    };
  }
}
