import { sql } from "drizzle-orm";
import { openDatabase, queryRows } from "#db/client.ts";

/** Sends one waitlist entry to a server's JSON API, as a script would. */
export function submitToWaitlist(serverUrl: string, entry: object): Promise<Response> {
  return fetch(`${serverUrl}/api/waitlist`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(entry),
  });
}

/** Opens a stopped server's database directly and counts the rows per address. */
export async function countsByEmail(options: {
  dataDir: string;
  databaseUrl?: string;
}): Promise<Map<string, number>> {
  const database = await openDatabase({
    dataDir: options.dataDir,
    databaseUrl: options.databaseUrl,
  });
  try {
    const rows = await queryRows<{ email: string; n: number }>(
      database.db,
      sql`SELECT lower(email) AS email, count(*)::int AS n FROM waitlist_entries GROUP BY 1`,
    );
    return new Map(rows.map((r) => [r.email, Number(r.n)]));
  } finally {
    await database.close();
  }
}

/** Sends `count` submissions, `concurrency` at a time; returns the emails acknowledged with 202. */
export async function flood(
  url: string,
  options: { count: number; concurrency: number; prefix: string; stopWhen?: () => boolean },
) {
  const acknowledged: string[] = [];
  const statuses = new Map<number, number>();
  let next = 0;
  async function worker() {
    while (next < options.count && !options.stopWhen?.()) {
      const i = next++;
      const email = `${options.prefix}-${i}@example.com`;
      try {
        const response = await fetch(`${url}/api/waitlist`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ name: `Lead ${i}`, email, company: "Load Test LLP" }),
        });
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
        if (response.status === 202) acknowledged.push(email);
      } catch {
        statuses.set(0, (statuses.get(0) ?? 0) + 1);
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, worker));
  return { acknowledged, statuses };
}
