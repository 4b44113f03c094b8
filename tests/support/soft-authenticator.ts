/**
 * A passkey authenticator in software, for tests that talk HTTP to the server without a browser:
 * set-up helpers that need an administrator with a passkey, and tests that craft hostile answers
 * (another origin, no user verification, a replayed counter). The browser tests use Chromium's
 * virtual authenticator instead; this one plays both the authenticator and the browser's part
 * (clientDataJSON), and answers in the JSON shapes @simplewebauthn/browser posts.
 *
 * It makes ES256 (P-256) credentials with attestation "none", as a platform authenticator does.
 * Only node:crypto and the small CBOR encoder below: no WebAuthn library, so a bug in the one the
 * server uses cannot hide behind the same bug here.
 *
 *   const authenticator = createSoftAuthenticator({ origin: "https://localhost:3443" });
 *   const registration = authenticator.register(creationOptionsJSON);
 *   const assertion = authenticator.assert(requestOptionsJSON);
 *   writeFileSync(file, JSON.stringify(authenticator)); // toJSON(): keys, ids, counters
 *   const again = restoreSoftAuthenticator(JSON.parse(readFileSync(file, "utf8")));
 *
 * Each assertion raises the credential's counter, and the server refuses a counter it has seen.
 * Two processes that restore the same saved authenticator therefore must not both assert with
 * one credential: give each its own credential, or save the authenticator again after use.
 */
import {
  createHash,
  createPrivateKey,
  generateKeyPairSync,
  randomBytes,
  sign,
  type JsonWebKey,
  type KeyObject,
} from "node:crypto";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";

/** COSE's number for ES256, the only algorithm this authenticator makes keys for. */
const ES256 = -7;

// Authenticator data flags (WebAuthn §6.1): user present, user verified, attested credential data.
const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

/** The part of PublicKeyCredentialCreationOptionsJSON it reads; the real type fits it. */
type CreationOptions = {
  challenge: string;
  rp: { id?: string };
  user: { id: string };
  pubKeyCredParams?: { alg: number }[];
  excludeCredentials?: { id: string }[];
};

/** The part of PublicKeyCredentialRequestOptionsJSON it reads; the real type fits it. */
type RequestOptions = {
  challenge: string;
  rpId?: string;
  allowCredentials?: { id: string }[];
};

/** What a ceremony may be told to do otherwise than an honest browser and authenticator would. */
type CeremonyOverrides = {
  /** Whether the user was verified (the UV flag); true unless false is given. */
  userVerified?: boolean;
  /** The origin the browser reports in clientDataJSON, instead of the authenticator's. */
  origin?: string;
  /** The RP id whose hash starts the authenticator data, instead of the options'. */
  rpId?: string;
};

type AssertOverrides = CeremonyOverrides & {
  /** Which held credential answers (base64url id); otherwise the first the options allow. */
  credentialId?: string;
  /** The counter to claim, e.g. one already used; the credential's own counter is left as is. */
  counter?: number;
};

/** One credential as saved: everything another process needs to assert with it. */
type SavedCredential = {
  /** base64url, as the server stores it and as `id` in the responses. */
  id: string;
  rpId: string;
  /** base64url of the user id the registration options gave (the assertion's userHandle). */
  userHandle: string;
  /** The counter of the last signature made; the next assertion claims one more. */
  counter: number;
  /** The P-256 private key as a JWK (it holds the public key too). */
  privateKey: JsonWebKey;
};

/** What `toJSON()` gives and `restoreSoftAuthenticator` takes. */
export type SoftAuthenticatorJSON = { origin: string; credentials: SavedCredential[] };

export type SoftAuthenticator = {
  readonly origin: string;
  /** navigator.credentials.create(): a new credential for the options' RP and user. */
  register(options: CreationOptions, overrides?: CeremonyOverrides): RegistrationResponseJSON;
  /** navigator.credentials.get(): an assertion by a held credential. */
  assert(options: RequestOptions, overrides?: AssertOverrides): AuthenticationResponseJSON;
  /** The base64url ids of the credentials held, oldest first. */
  credentialIds(): string[];
  toJSON(): SoftAuthenticatorJSON;
};

type Credential = Omit<SavedCredential, "privateKey"> & { privateKey: KeyObject };

/** An authenticator holding no credential yet, acting for pages at `origin`. */
export function createSoftAuthenticator({ origin }: { origin: string }): SoftAuthenticator {
  return softAuthenticator(origin, []);
}

/** An authenticator saved with `toJSON()`, in this process or another. */
export function restoreSoftAuthenticator(json: SoftAuthenticatorJSON): SoftAuthenticator {
  return softAuthenticator(
    json.origin,
    json.credentials.map((saved) => ({
      ...saved,
      privateKey: createPrivateKey({ key: saved.privateKey, format: "jwk" }),
    })),
  );
}

function softAuthenticator(origin: string, credentials: Credential[]): SoftAuthenticator {
  // A browser takes the RP id from the page's host when the options leave it out.
  const defaultRpId = new URL(origin).hostname;

  return {
    origin,

    register(options, overrides = {}) {
      // What a browser would refuse before asking the user (NotSupportedError, InvalidStateError).
      if (options.pubKeyCredParams && !options.pubKeyCredParams.some((p) => p.alg === ES256)) {
        throw new Error("soft authenticator: the options do not accept ES256 (-7)");
      }
      const excluded = new Set(options.excludeCredentials?.map((c) => c.id));
      if (credentials.some((c) => excluded.has(c.id))) {
        throw new Error("soft authenticator: it already holds a credential the options exclude");
      }

      const rpId = overrides.rpId ?? options.rp.id ?? defaultRpId;
      const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
      const credentialId = randomBytes(32);
      const credential: Credential = {
        id: credentialId.toString("base64url"),
        rpId,
        userHandle: options.user.id,
        counter: 0,
        privateKey,
      };

      const attestedCredentialData = Buffer.concat([
        Buffer.alloc(16), // AAGUID: zeros, as attestation "none" leaves it
        uint16(credentialId.length),
        credentialId,
        encodeCbor(coseKey(publicKey)),
      ]);
      const authenticatorData = Buffer.concat([
        authenticatorDataHead(rpId, FLAG_UP | uvFlag(overrides) | FLAG_AT, credential.counter),
        attestedCredentialData,
      ]);
      const attestationObject = encodeCbor(
        new Map<string, CborValue>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", authenticatorData],
        ]),
      );
      const clientDataJSON = clientData("webauthn.create", options.challenge, overrides);
      credentials.push(credential);

      return {
        id: credential.id,
        rawId: credential.id,
        type: "public-key",
        response: {
          clientDataJSON: clientDataJSON.toString("base64url"),
          attestationObject: attestationObject.toString("base64url"),
          authenticatorData: authenticatorData.toString("base64url"),
          transports: ["internal"],
          publicKeyAlgorithm: ES256,
          publicKey: publicKey.export({ type: "spki", format: "der" }).toString("base64url"),
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      };
    },

    assert(options, overrides = {}) {
      const credential = chooseCredential(options, overrides);
      const rpId = overrides.rpId ?? options.rpId ?? defaultRpId;
      let counter = overrides.counter;
      if (counter === undefined) {
        credential.counter += 1;
        counter = credential.counter;
      }

      const authenticatorData = authenticatorDataHead(rpId, FLAG_UP | uvFlag(overrides), counter);
      const clientDataJSON = clientData("webauthn.get", options.challenge, overrides);
      // WebAuthn §6.3.3: the signature covers authData || SHA-256(clientDataJSON). For an EC key
      // node's sign() gives the ASN.1 DER form WebAuthn asks for.
      const signature = sign(
        "sha256",
        Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
        credential.privateKey,
      );

      return {
        id: credential.id,
        rawId: credential.id,
        type: "public-key",
        response: {
          clientDataJSON: clientDataJSON.toString("base64url"),
          authenticatorData: authenticatorData.toString("base64url"),
          signature: signature.toString("base64url"),
          userHandle: credential.userHandle,
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      };
    },

    credentialIds() {
      return credentials.map((c) => c.id);
    },

    toJSON() {
      return {
        origin,
        credentials: credentials.map((c) => ({
          ...c,
          privateKey: c.privateKey.export({ format: "jwk" }),
        })),
      };
    },
  };

  /** The credential named, else the first held that the options allow (any, if they list none). */
  function chooseCredential(options: RequestOptions, overrides: AssertOverrides): Credential {
    const wanted = overrides.credentialId;
    const allowed = options.allowCredentials?.map((c) => c.id) ?? [];
    const credential = credentials.find((c) =>
      wanted !== undefined ? c.id === wanted : allowed.length === 0 || allowed.includes(c.id),
    );
    if (!credential) {
      throw new Error(
        `soft authenticator: no credential ${wanted ?? "that the options allow"} is held`,
      );
    }
    return credential;
  }

  /** clientDataJSON as a browser writes it, in its order of keys. */
  function clientData(type: string, challenge: string, overrides: CeremonyOverrides): Buffer {
    return Buffer.from(
      JSON.stringify({ type, challenge, origin: overrides.origin ?? origin, crossOrigin: false }),
    );
  }
}

function uvFlag(overrides: CeremonyOverrides): number {
  return overrides.userVerified === false ? 0 : FLAG_UV;
}

/** The first 37 bytes of authenticator data: rpIdHash, flags, signCount. */
function authenticatorDataHead(rpId: string, flags: number, counter: number): Buffer {
  const counterBytes = Buffer.alloc(4);
  counterBytes.writeUInt32BE(counter);
  return Buffer.concat([sha256(Buffer.from(rpId)), Buffer.of(flags), counterBytes]);
}

/** The public key as a COSE_Key (RFC 9053 §7.1.1): kty EC2, alg ES256, crv P-256, x, y. */
function coseKey(publicKey: KeyObject): Map<number, CborValue> {
  const { x, y } = publicKey.export({ format: "jwk" });
  if (!x || !y) throw new Error("soft authenticator: the EC key has no coordinates");
  return new Map<number, CborValue>([
    [1, 2],
    [3, ES256],
    [-1, 1],
    [-2, Buffer.from(x, "base64url")],
    [-3, Buffer.from(y, "base64url")],
  ]);
}

function sha256(data: Buffer): Buffer {
  return createHash("sha256").update(data).digest();
}

function uint16(value: number): Buffer {
  const bytes = Buffer.alloc(2);
  bytes.writeUInt16BE(value);
  return bytes;
}

/** What the encoder below writes. Maps keep their insertion order. */
type CborValue = number | string | Uint8Array | CborValue[] | Map<number | string, CborValue>;

/**
 * CBOR (RFC 8949) for the few types WebAuthn uses, always in the shortest form: the server's
 * parser re-encodes the COSE key to learn its length, so a longer form than needed would be read
 * as leftover bytes.
 */
function encodeCbor(value: CborValue): Buffer {
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new Error(`CBOR: ${value} is not an integer`);
    return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  }
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([cborHead(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value]);
  if (Array.isArray(value)) {
    return Buffer.concat([cborHead(4, value.length), ...value.map(encodeCbor)]);
  }
  return Buffer.concat([
    cborHead(5, value.size),
    ...[...value].flatMap(([key, item]) => [encodeCbor(key), encodeCbor(item)]),
  ]);
}

/** A major type and its argument (a length, or the integer itself). */
function cborHead(major: number, argument: number): Buffer {
  const type = major << 5;
  if (argument < 24) return Buffer.of(type | argument);
  if (argument < 0x100) return Buffer.of(type | 24, argument);
  if (argument < 0x10000) return Buffer.concat([Buffer.of(type | 25), uint16(argument)]);
  if (argument < 0x100000000) {
    const bytes = Buffer.alloc(5);
    bytes[0] = type | 26;
    bytes.writeUInt32BE(argument, 1);
    return bytes;
  }
  const bytes = Buffer.alloc(9);
  bytes[0] = type | 27;
  bytes.writeBigUInt64BE(BigInt(argument), 1);
  return bytes;
}
