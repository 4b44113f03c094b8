// Acknowledged waitlist submissions per second against a running server (40 concurrent clients).
// Usage: npx tsx scripts/bench-waitlist.ts [baseUrl] [count]
const base = process.argv[2] ?? "http://localhost:3000";
export {};
const count = Number(process.argv[3] ?? 4000);
const CONCURRENCY = 40;
const run = Date.now().toString(36);

let next = 0;
let acknowledged = 0;
const statuses = new Map<number, number>();
async function client() {
  while (next < count) {
    const i = next++;
    const response = await fetch(`${base}/api/waitlist`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        name: `Bench ${i}`,
        email: `bench-${run}-${i}@example.com`,
        company: "Bench LLP",
      }),
    });
    await response.arrayBuffer();
    statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
    if (response.status === 201) acknowledged++;
  }
}
const started = performance.now();
await Promise.all(Array.from({ length: CONCURRENCY }, client));
const seconds = (performance.now() - started) / 1000;
console.log(
  JSON.stringify({
    count,
    concurrency: CONCURRENCY,
    seconds: Number(seconds.toFixed(2)),
    acknowledgedPerSecond: Math.round(acknowledged / seconds),
    statuses: Object.fromEntries(statuses),
  }),
);
