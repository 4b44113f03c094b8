// The soft authenticator of tests/support checked against the library the server verifies with.
// It sits here because Vitest collects unit tests from src/, server/, db/ and scripts/ only.
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type WebAuthnCredential,
} from "@simplewebauthn/server";
import { describe, expect, test } from "vitest";
import {
  createSoftAuthenticator,
  restoreSoftAuthenticator,
  type SoftAuthenticator,
  type SoftAuthenticatorJSON,
} from "#tests/support/soft-authenticator.ts";

const ORIGIN = "https://tieout.test";
const RP_ID = "tieout.test";

/** A registration the server accepted, and the credential it would store. */
async function registered(authenticator: SoftAuthenticator): Promise<WebAuthnCredential> {
  const options = await generateRegistrationOptions({
    rpName: "Tieout",
    rpID: RP_ID,
    userName: "admin@tieout.test",
    attestationType: "none",
    authenticatorSelection: { userVerification: "required", residentKey: "preferred" },
  });
  const result = await verifyRegistrationResponse({
    response: authenticator.register(options),
    expectedChallenge: options.challenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    requireUserVerification: true,
  });
  expect(result.verified).toBe(true);
  if (!result.registrationInfo) throw new Error("no registration info");
  return result.registrationInfo.credential;
}

/** An assertion by `authenticator` checked as the server checks it. */
async function verifiedAssertion(
  authenticator: SoftAuthenticator,
  credential: WebAuthnCredential,
  overrides: Parameters<SoftAuthenticator["assert"]>[1] = {},
) {
  const options = await generateAuthenticationOptions({
    rpID: RP_ID,
    allowCredentials: [{ id: credential.id }],
    userVerification: "required",
  });
  return verifyAuthenticationResponse({
    response: authenticator.assert(options, overrides),
    expectedChallenge: options.challenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    credential,
    requireUserVerification: true,
  });
}

describe("the soft authenticator", () => {
  test("registers a credential the server accepts", async () => {
    const authenticator = createSoftAuthenticator({ origin: ORIGIN });
    const credential = await registered(authenticator);
    expect(credential.id).toBe(authenticator.credentialIds()[0]);
    expect(credential.counter).toBe(0);
  });

  test("asserts, and each assertion raises the counter", async () => {
    const authenticator = createSoftAuthenticator({ origin: ORIGIN });
    const credential = await registered(authenticator);

    const first = await verifiedAssertion(authenticator, credential);
    expect(first.verified).toBe(true);
    expect(first.authenticationInfo.userVerified).toBe(true);
    const second = await verifiedAssertion(authenticator, {
      ...credential,
      counter: first.authenticationInfo.newCounter,
    });
    expect(second.verified).toBe(true);
    expect(second.authenticationInfo.newCounter).toBeGreaterThan(
      first.authenticationInfo.newCounter,
    );
  });

  test("an assertion without user verification is refused", async () => {
    const authenticator = createSoftAuthenticator({ origin: ORIGIN });
    const credential = await registered(authenticator);
    await expect(
      verifiedAssertion(authenticator, credential, { userVerified: false }),
    ).rejects.toThrow(/user could not be verified/i);
  });

  test("a registration without user verification is refused", async () => {
    const authenticator = createSoftAuthenticator({ origin: ORIGIN });
    const options = await generateRegistrationOptions({
      rpName: "Tieout",
      rpID: RP_ID,
      userName: "admin@tieout.test",
    });
    await expect(
      verifyRegistrationResponse({
        response: authenticator.register(options, { userVerified: false }),
        expectedChallenge: options.challenge,
        expectedOrigin: ORIGIN,
        expectedRPID: RP_ID,
        requireUserVerification: true,
      }),
    ).rejects.toThrow(/user could not be verified/i);
  });

  test("an assertion from another origin is refused", async () => {
    const authenticator = createSoftAuthenticator({ origin: ORIGIN });
    const credential = await registered(authenticator);
    await expect(
      verifiedAssertion(authenticator, credential, { origin: "https://evil.test" }),
    ).rejects.toThrow(/origin/i);
  });

  test("a replayed counter is refused", async () => {
    const authenticator = createSoftAuthenticator({ origin: ORIGIN });
    const credential = await registered(authenticator);
    const first = await verifiedAssertion(authenticator, credential);
    await expect(
      verifiedAssertion(
        authenticator,
        { ...credential, counter: first.authenticationInfo.newCounter },
        { counter: first.authenticationInfo.newCounter },
      ),
    ).rejects.toThrow(/counter/i);
  });

  test("a restored authenticator still asserts, with the credential named", async () => {
    const authenticator = createSoftAuthenticator({ origin: ORIGIN });
    const credential = await registered(authenticator);
    const other = await registered(authenticator);
    const first = await verifiedAssertion(authenticator, credential);

    // Through a string, as a file shared with another worker would carry it.
    const saved = JSON.stringify(authenticator);
    const restored = restoreSoftAuthenticator(JSON.parse(saved) as SoftAuthenticatorJSON);
    expect(restored.credentialIds()).toEqual([credential.id, other.id]);

    const again = await verifiedAssertion(restored, {
      ...credential,
      counter: first.authenticationInfo.newCounter,
    });
    expect(again.verified).toBe(true);
    const byId = await verifiedAssertion(restored, other, { credentialId: other.id });
    expect(byId.verified).toBe(true);
  });
});
