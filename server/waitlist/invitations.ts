/**
 * Invitations on the account's side (decision 024): the sign-up page reads whose invitation a link
 * carries, and an account's first session joins its entry: matched by the invitation's token (for
 * the address it was sent to), else by the account that joined before, else by the account's
 * verified address. What may join is the lifecycle's call (src/features/waitlist/lifecycle.ts).
 */
import { enqueueWebhookEvents, entryData } from "#server/webhooks/events.ts";
import { and, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "#db/client.ts";
import { waitlistEntries, waitlistTokens, type WaitlistRow } from "#db/schema.ts";
import { endInvitations } from "#server/waitlist/admin-actions.ts";
import { lifecycleOf } from "#server/waitlist/lifecycle-of.ts";
import { hashToken, isWellFormedToken } from "#server/waitlist/tokens.ts";
import { transition } from "#src/features/waitlist/lifecycle.ts";

/** The account asking for a session, and the invitation it came with, if any. */
export type JoinRequest = {
  uid: string;
  email: string | null;
  emailVerified: boolean;
  /** The token of the invitation link the account was created or signed in from. */
  invitation: string | null;
  /** SIGNUP_MODE=open: an entry in any state may join; otherwise only an invited one. */
  openSignup: boolean;
};

/**
 * "joined": this session made its entry joined. "member": its entry had joined already. "none":
 * no entry of this account may join (no invitation, or not one for this address).
 */
export type Membership = "joined" | "member" | "none";

const sameAddress = (email: string) => sql`lower(${waitlistEntries.email}) = lower(${email})`;

/** The invitation's token while it works: unused, unexpired. */
function liveInvitation(token: string) {
  return and(
    eq(waitlistTokens.tokenHash, hashToken(token)),
    eq(waitlistTokens.purpose, "invite"),
    isNull(waitlistTokens.usedAt),
    gt(waitlistTokens.expiresAt, sql`now()`),
  );
}

/** The entry becomes joined by this account; its invitation links stop working. */
async function markJoined(tx: Db, row: WaitlistRow, uid: string) {
  await endInvitations(tx, row.id);
  const [joined] = await tx
    .update(waitlistEntries)
    .set({ state: "joined", joinedAt: sql`now()`, joinedUid: uid })
    .where(eq(waitlistEntries.id, row.id))
    .returning();
  if (joined) await enqueueWebhookEvents(tx, [{ type: "entry.joined", data: entryData(joined) }]);
}

export async function checkInvitation(db: Db, token: string): Promise<{ email: string } | null> {
  if (!isWellFormedToken(token)) return null;
  const [row] = await db
    .select({ email: waitlistEntries.email })
    .from(waitlistTokens)
    .innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistTokens.entryId))
    .where(and(liveInvitation(token), eq(waitlistEntries.state, "invited")));
  return row ?? null;
}

export function join(db: Db, request: JoinRequest): Promise<Membership> {
  const { uid, email, emailVerified, invitation, openSignup } = request;
  return db.transaction(async (tx): Promise<Membership> => {
    // The invitation link, for the address it was sent to: whoever holds it reads that mailbox,
    // so the account's address need not be verified yet.
    if (email && isWellFormedToken(invitation)) {
      const [invited] = await tx
        .select({ entry: waitlistEntries })
        .from(waitlistTokens)
        .innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistTokens.entryId))
        .where(and(liveInvitation(invitation), sameAddress(email)))
        .for("update");
      if (invited && transition(lifecycleOf(invited.entry), { type: "join", openSignup }).ok) {
        await tx
          .update(waitlistTokens)
          .set({ usedAt: sql`now()` })
          .where(eq(waitlistTokens.tokenHash, hashToken(invitation)));
        await markJoined(tx, invited.entry, uid);
        return "joined";
      }
    }

    // The account that joined before keeps its place, whatever its address is now.
    const [joinedBefore] = await tx
      .select({ id: waitlistEntries.id })
      .from(waitlistEntries)
      .where(and(eq(waitlistEntries.joinedUid, uid), eq(waitlistEntries.state, "joined")))
      .limit(1);
    if (joinedBefore) return "member";

    // The verified address: the owner of the mailbox, signing in without the link.
    if (!email || !emailVerified) return "none";
    const [entry] = await tx.select().from(waitlistEntries).where(sameAddress(email)).for("update");
    if (!entry) return "none";
    if (entry.state === "joined") {
      // The address joined with another account (deleted since, say): this one takes its place.
      await tx
        .update(waitlistEntries)
        .set({ joinedUid: uid })
        .where(eq(waitlistEntries.id, entry.id));
      return "member";
    }
    if (!transition(lifecycleOf(entry), { type: "join", openSignup }).ok) return "none";
    await markJoined(tx, entry, uid);
    return "joined";
  });
}
