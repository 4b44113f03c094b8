/** A real SMTP server on loopback for the bench's site to deliver to (scripts/bench/mail.ts, broadcasts.ts). */
import type { SMTPServer } from "smtp-server";

/** Listens on a free loopback port; resolves with its URL and how to close it. */
export async function listenSmtpSink(server: SMTPServer) {
  // The sender is killed with -9 in the middle of a delivery: its connections reset, which is the
  // point of that measurement, not a failure of the relay.
  server.on("error", (error: Error & { code?: string }) => {
    if (error.code !== "ECONNRESET") throw error;
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
