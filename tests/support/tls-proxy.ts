/**
 * A load balancer in front of a test server, as production has one: it terminates TLS on 443 with
 * a self-signed certificate for localhost and passes plain HTTP from 80 through unchanged, telling
 * the app which one the visitor used (X-Forwarded-Proto) and who they are (X-Forwarded-For). The
 * app decides what to do about plain HTTP (redirect), exactly as behind a real load balancer.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http, {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import https from "node:https";
import { tmpdir } from "node:os";
import path from "node:path";

export type TlsProxy = {
  /** The certificate (PEM file) to trust: NODE_EXTRA_CA_CERTS for a Node child process. */
  certFile: string;
  cert: string;
  stop: () => Promise<void>;
};

/** localhost resolves to 127.0.0.1 here; ::1 too on hosts whose /etc/hosts says so. */
const LOOPBACK = ["127.0.0.1", "::1"];

/** A fresh key and self-signed certificate for localhost, valid for one day. */
export function createLocalhostCertificate(dir: string): { keyFile: string; certFile: string } {
  const keyFile = path.join(dir, "localhost-key.pem");
  const certFile = path.join(dir, "localhost-cert.pem");
  execFileSync(
    "/usr/bin/openssl",
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "1",
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1",
      "-keyout",
      keyFile,
      "-out",
      certFile,
    ],
    { stdio: "pipe" },
  );
  return { keyFile, certFile };
}

function forwarder(appPort: number, proto: "http" | "https") {
  return (req: IncomingMessage, res: ServerResponse) => {
    const headers = { ...req.headers };
    // Whatever the client claims is replaced: only the proxy knows how the visitor arrived.
    headers["x-forwarded-proto"] = proto;
    const client = req.socket.remoteAddress ?? "";
    const seen = req.headers["x-forwarded-for"];
    headers["x-forwarded-for"] = seen ? `${String(seen)}, ${client}` : client;
    const upstream = http.request(
      { host: "127.0.0.1", port: appPort, method: req.method, path: req.url, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
        answer.pipe(res);
      },
    );
    upstream.on("error", (error) => {
      if (res.headersSent) res.destroy(error);
      else res.writeHead(502, { "Content-Type": "text/plain" }).end(`proxy: ${error.message}`);
    });
    req.pipe(upstream);
  };
}

async function listen(server: Server, port: number, host: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      server.off("listening", onListening);
      reject(
        error.code === "EADDRINUSE" || error.code === "EACCES"
          ? new Error(
              `The TLS proxy needs ${host} port ${port} (the Observatory scans the default ports ` +
                `80 and 443 only) and got ${error.code}. Free the port, or run as root.`,
            )
          : error,
      );
    };
    const onListening = () => {
      server.off("error", onError);
      resolve();
    };
    server.once("error", onError);
    server.once("listening", onListening);
    server.listen({ port, host, ipv6Only: host.includes(":") });
  });
}

async function close(server: Server): Promise<void> {
  if (!server.listening) return;
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * Listens on 443 (TLS) and 80 (plain) of the loopback addresses and forwards every request to the
 * app on 127.0.0.1:appPort. Fails with a clear message when a port is taken: never a silent skip.
 */
export async function startTlsProxy(appPort: number): Promise<TlsProxy> {
  const dir = mkdtempSync(path.join(tmpdir(), "tieout-tls-"));
  const { keyFile, certFile } = createLocalhostCertificate(dir);
  const cert = readFileSync(certFile, "utf8");
  const key = readFileSync(keyFile, "utf8");
  const servers: Server[] = [];
  const stop = async () => {
    await Promise.all(servers.map(close));
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const host of LOOPBACK) {
      const secure = https.createServer({ key, cert }, forwarder(appPort, "https"));
      const plain = http.createServer(forwarder(appPort, "http"));
      servers.push(secure, plain);
      try {
        await listen(secure, 443, host);
        await listen(plain, 80, host);
      } catch (error) {
        // A host without IPv6 has no ::1 to listen on; 127.0.0.1 is what localhost means there.
        const code = (error as NodeJS.ErrnoException).code;
        if (host === "::1" && (code === "EADDRNOTAVAIL" || code === "EAFNOSUPPORT")) continue;
        throw error;
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { certFile, cert, stop };
}

export type PlainResponse = { status: number; headers: IncomingHttpHeaders; body: string };

/**
 * One request, redirects not followed. Over TLS the certificate is checked against `ca` (the
 * proxy's own): verification stays on.
 */
export async function send(
  url: string,
  options: { method?: string; headers?: Record<string, string>; ca?: string } = {},
): Promise<PlainResponse> {
  const target = new URL(url);
  const client = target.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(
      target,
      {
        method: options.method ?? "GET",
        headers: options.headers,
        agent: false,
        ...(options.ca ? { ca: options.ca } : {}),
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end();
  });
}
