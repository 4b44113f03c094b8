/**
 * The pages that belong to someone (the pages behind the links in the site's mails, a member's
 * account, the administrator's pages), each with the visit that opens it in a world of its own: a
 * new lead and the link in its mail, a new member signed in, the administrator signed in with
 * data of the visit's own. What differs by construction between two visits (an address, a token,
 * figures and times) is named in the visit's masks. The first-press test presses every control on
 * them (first-press-owned.spec.ts); the accessibility test runs axe on each
 * (axe-every-route.spec.ts).
 */
import {
  createVerifiedAccount,
  deleteAccount,
  ensureAdmin,
  signInBrowser,
  signInBrowserVerified,
  type Account,
} from "#tests/support/accounts.ts";
import { E2E_ADMIN_EMAIL } from "#tests/support/e2e-env.ts";
import { ensureUser, uniqueEmail } from "#tests/support/emulator.ts";
import { expect } from "#tests/support/fixtures.ts";
import type { OpenVisit } from "#tests/support/first-press.ts";
import { confirmedLead, linkIn, waitForMails } from "#tests/support/mailbox.ts";
import type { RunningServer } from "#tests/support/server.ts";
import type { TestSmtp } from "#tests/support/test-smtp.ts";
import { submitToWaitlist } from "#tests/support/waitlist-db.ts";

/** Administrators who have no passkey yet, one for each visit to /admin/verify (decision 039). */
const NEW_ADMINS = Array.from({ length: 40 }, (_, i) => `press-admin-${i + 1}@tieout.test`);

/** The environment of the server the visits need: `test.use({ ownServerEnv: OWNED_SERVER_ENV })`. */
export const OWNED_SERVER_ENV = {
  ADMIN_EMAILS: [E2E_ADMIN_EMAIL, ...NEW_ADMINS].join(","),
  // Each webhook visit adds an endpoint of its own on a closed local port (decision 046).
  WEBHOOKS_ALLOW_PRIVATE: "true",
};

/** This worker's server and the mail it sends. */
export type Site = { server: RunningServer; smtp: TestSmtp };

const members: Account[] = [];

/** Before the visits (a `beforeAll`): what the admin pages show that no visit makes. */
export async function prepareOwnedPages({ server, smtp }: Site): Promise<void> {
  // One correction waits for the administrator on /admin/privacy, its form and button with it.
  const email = uniqueEmail("press-correction");
  await postForm(server, "/privacy-request", {
    email,
    name: "Cora Rection",
    kind: "correction",
    details: "My company name is Ledger & Co, not Ledger Co.",
  });
  await spend(server, await mailLink(smtp, email, "/privacy-request/confirm?token="));
}

/** After the visits (an `afterAll`): the members they made are deleted. */
export async function forgetOwnedPageMembers(): Promise<void> {
  await Promise.all(members.splice(0).map(deleteAccount));
}

/** A form posted as a browser without JavaScript posts it. */
async function postForm(server: RunningServer, path: string, fields: Record<string, string>) {
  const answer = await fetch(`${server.url}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
  expect(answer.status, `POST ${path}`).toBeLessThan(300);
}

/** The link to `path` in the newest mail to `email`. */
async function mailLink(smtp: TestSmtp, email: string, path: string): Promise<string> {
  const mails = await waitForMails(smtp, email, 1);
  return linkIn(mails.at(-1)!, path);
}

/** Presses a mail link's button, as its owner would. */
async function spend(server: RunningServer, link: string) {
  await postForm(server, new URL(link).pathname, {
    token: new URL(link).searchParams.get("token")!,
  });
}

/** The page behind a link in a new lead's, subscriber's or requester's first mail. */
function mailLinkVisit(
  path: string,
  ask: (server: RunningServer, email: string) => Promise<void>,
): (site: Site) => OpenVisit {
  return ({ server, smtp }) =>
    async () => {
      const email = uniqueEmail("press-link");
      await ask(server, email);
      const link = await mailLink(smtp, email, `${path}?token=`);
      return {
        url: link,
        masks: [new URL(link).searchParams.get("token")!, email, REFERRAL_LINK],
      };
    };
}

/** The link to share on the page that says an address is confirmed: each lead's own (045). */
const REFERRAL_LINK = /ref(?:=|%3D)[0-9a-f]{16}/g;

const joinWaitlist = async (server: RunningServer, email: string) => {
  expect((await submitToWaitlist(server.url, { name: "Lee Link", email })).status).toBe(202);
};
const subscribe = (server: RunningServer, email: string) =>
  postForm(server, "/subprocessors", { email });
const askForCopy = (server: RunningServer, email: string) =>
  postForm(server, "/privacy-request", { email, name: "Rae Quest", kind: "access", details: "" });

/** The qualifying questions behind a confirmed lead's link (decision 043). */
const answersVisit =
  ({ server, smtp }: Site): OpenVisit =>
  async () => {
    const email = uniqueEmail("press-answers");
    const link = await confirmedLead(server.url, smtp, { name: "Ann Swers", email });
    return { url: link, masks: [new URL(link).searchParams.get("token")!, email] };
  };

/**
 * Figures and times move with every visit: on the admin pages each visit counts and takes time,
 * and two members made a minute apart were created at different times.
 */
const FIGURES = /\d+/g;

/** A member who just signed up and signed in. */
const memberVisit =
  ({ server }: Site): OpenVisit =>
  async (context) => {
    const member = await createVerifiedAccount("press-member");
    members.push(member);
    await signInBrowser(context, server.url, member);
    return { url: `${server.url}/account`, masks: [member.email, FIGURES] };
  };

/** The administrator, signed in, on `path`. */
function adminVisit(path: string): (site: Site) => OpenVisit {
  return ({ server }) =>
    async (context) => {
      await signInBrowserVerified(context, server, await ensureAdmin());
      return { url: `${server.url}${path}`, masks: [FIGURES] };
    };
}

/**
 * The waitlist as the administrator sees it, searched for two entries of this visit's own: one
 * that confirmed its address and one that did not. Their buttons act on them alone.
 */
const adminWaitlistVisit =
  ({ server, smtp }: Site): OpenVisit =>
  async (context) => {
    const tag = `press${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const confirmed = `${tag}-confirmed@example-cpa.com`;
    await confirmedLead(server.url, smtp, { name: "Cam Confirmed", email: confirmed });
    await joinWaitlist(server, `${tag}-new@example-cpa.com`);
    await signInBrowserVerified(context, server, await ensureAdmin());
    return { url: `${server.url}/admin/waitlist?q=${tag}`, masks: [tag, FIGURES] };
  };

/**
 * The list of broadcasts, behind the draft page's link to it, holds every visit's draft so far,
 * one more for each visit: each of their rows is masked, then the run of masks, so that two
 * visits' lists read the same.
 */
const LISTED_DRAFTS = /^( *)- row "News for nobody[^\n]*(?:\n\1 +[^\n]*)*/gm;
const MASK_RUNS = /…(?:\n…)+/g;

/**
 * A draft broadcast of this visit's own, saved as the composer saves one, whose audience is
 * nobody (the search is this visit's tag): its buttons save, preview, test, send and cancel it
 * alone, and sending it is refused for want of recipients.
 */
const adminBroadcastVisit =
  ({ server }: Site): OpenVisit =>
  async (context) => {
    const tag = `press${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const { cookie } = await signInBrowserVerified(context, server, await ensureAdmin());
    const saved = await fetch(`${server.url}/admin/broadcasts/new`, {
      method: "POST",
      headers: { cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        intent: "save",
        kind: "waitlist-news",
        subject: "News for nobody",
        body: "Hello.\n\nA line of news.",
        states: "confirmed",
        search: tag,
      }),
      redirect: "manual",
    });
    expect(saved.status, "the draft's save").toBe(307);
    return {
      url: `${server.url}${saved.headers.get("location")}`,
      masks: [tag, LISTED_DRAFTS, MASK_RUNS, FIGURES],
    };
  };

/** Each visit's endpoint rows on the list of webhooks, then the run of masks (as for drafts). */
const LISTED_ENDPOINTS = /^( *)- row "https:\/\/127\.0\.0\.1:9\/[^\n]*(?:\n\1 +[^\n]*)*/gm;
/**
 * An endpoint's delivery log, whose rows depend on whether the outbox has tried a test event yet,
 * and the ids and secrets each visit makes anew.
 */
const DELIVERY_LOG = /^( *)- region "Delivery log":(?:\n\1 +[^\n]*)*/gm;
const MADE_ANEW = /(?:msg_[\w-]+|whsec_[\w+/=]+)/g;
/** Whether the test event's failed attempt (a closed port) came before the page was read. */
const FAILING = /Enabled(?:, failing since [^\n"]*)?/g;

/**
 * A webhook endpoint of this visit's own, added as the form adds one, on a closed port of this
 * machine: its page's buttons test, rotate, disable and remove it alone; the list shows it among
 * the others, each masked. Resolves with the visit's page: the list, or the endpoint's own.
 */
const adminWebhookVisit =
  (page: "list" | "endpoint") =>
  ({ server }: Site): OpenVisit =>
  async (context) => {
    const tag = `press${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const { cookie } = await signInBrowserVerified(context, server, await ensureAdmin());
    const url = `https://127.0.0.1:9/${tag}`;
    // The visits before this one leave their endpoints: removed first, as an administrator removes
    // one, so every visit's list holds its own endpoint alone (and the limit of 20 is never met).
    const listed = await (
      await fetch(`${server.url}/admin/webhooks`, { headers: { cookie } })
    ).text();
    for (const [, before] of listed.matchAll(/href="\/admin\/webhooks\/(\d+)"/g)) {
      const removed = await fetch(`${server.url}/admin/webhooks/${before}`, {
        method: "POST",
        headers: { cookie, "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ intent: "remove" }),
        redirect: "manual",
      });
      expect(removed.status, "an earlier visit's endpoint removed").toBe(303);
    }
    const added = await fetch(`${server.url}/admin/webhooks`, {
      method: "POST",
      headers: { cookie, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams([
        ["intent", "add"],
        ["url", url],
        ["description", ""],
        ["events", "entry.created"],
      ]),
    });
    const html = await added.text();
    expect(added.status, "the endpoint's adding").toBe(200);
    const [, id] = new RegExp(`href="/admin/webhooks/(\\d+)"[^>]*>${url}<`).exec(html) ?? [];
    expect(id, "the added endpoint's link").toBeDefined();
    return {
      url: `${server.url}/admin/webhooks${page === "list" ? "" : `/${id}`}`,
      masks: [tag, LISTED_ENDPOINTS, DELIVERY_LOG, MADE_ANEW, FAILING, MASK_RUNS, FIGURES],
    };
  };

/**
 * A sheet of this visit's own, uploaded as the import page uploads one: its preview's controls map,
 * preview and import it alone. The page's address holds the upload's id, masked with the rest.
 */
const adminImportVisit =
  ({ server }: Site): OpenVisit =>
  async (context) => {
    const tag = `press${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
    const { cookie } = await signInBrowserVerified(context, server, await ensureAdmin());
    const form = new FormData();
    form.append(
      "file",
      new Blob([`Email,Name,Firm\n${tag}-a@example-cpa.com,Ada ${tag},Ada CPA\n`], {
        type: "text/csv",
      }),
      `${tag}.csv`,
    );
    const uploaded = await fetch(`${server.url}/api/admin/import`, {
      method: "POST",
      headers: { cookie, origin: server.url },
      body: form,
      redirect: "manual",
    });
    expect(uploaded.status, "the sheet's upload").toBe(303);
    const id = /\/admin\/import\/([0-9a-f]{32})$/.exec(uploaded.headers.get("location") ?? "")?.[1];
    expect(id, "the upload's preview").toBeDefined();
    return {
      url: `${server.url}/admin/import/${id}`,
      masks: [tag, id!, FIGURES],
    };
  };

/**
 * An administrator signed in with the password who has no passkey yet, on /admin/verify: its one
 * control mails a code. Each visit is another administrator's, so no visit's code is another's.
 */
let newAdmins = 0;
const adminVerifyVisit =
  ({ server }: Site): OpenVisit =>
  async (context) => {
    const email = NEW_ADMINS[newAdmins++ % NEW_ADMINS.length]!;
    const password = "press-admin-password-1";
    const uid = await ensureUser(email, password, { verified: true });
    await signInBrowser(context, server.url, { email, password, uid });
    return { url: `${server.url}/admin/verify?next=%2Fadmin`, masks: [email, FIGURES] };
  };

export const OWNED_PAGES: Record<string, (site: Site) => OpenVisit> = {
  "/waitlist/confirm": mailLinkVisit("/waitlist/confirm", joinWaitlist),
  "/waitlist/remove": mailLinkVisit("/waitlist/remove", joinWaitlist),
  "/waitlist/answers": answersVisit,
  "/subprocessors/confirm": mailLinkVisit("/subprocessors/confirm", subscribe),
  "/subprocessors/unsubscribe": mailLinkVisit("/subprocessors/unsubscribe", subscribe),
  "/privacy-request/confirm": mailLinkVisit("/privacy-request/confirm", askForCopy),
  "/account": memberVisit,
  "/admin": adminVisit("/admin"),
  "/admin/verify": adminVerifyVisit,
  "/admin/waitlist": adminWaitlistVisit,
  "/admin/deliveries": adminVisit("/admin/deliveries"),
  "/admin/activity": adminVisit("/admin/activity"),
  "/admin/privacy": adminVisit("/admin/privacy"),
  // Before the broadcast pages, whose visits add drafts that the list would then link to.
  "/admin/broadcasts": adminVisit("/admin/broadcasts"),
  "/admin/broadcasts/new": adminVisit("/admin/broadcasts/new"),
  "/admin/broadcasts/:id": adminBroadcastVisit,
  "/admin/suppressions": adminVisit("/admin/suppressions"),
  "/admin/webhooks": adminWebhookVisit("list"),
  "/admin/webhooks/:id": adminWebhookVisit("endpoint"),
  "/admin/import": adminVisit("/admin/import"),
  "/admin/import/:id": adminImportVisit,
};
