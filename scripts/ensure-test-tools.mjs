// What the end-to-end tests need from Debian: Chromium's headless shell (Playwright's own
// download cannot reach its host here; decision 050), a PostgreSQL server (the multi-instance
// tests), LibreOffice with poppler (the DPA download is opened as a customer would), and Dovecot (the bounce mailbox reader is
// tested against a real IMAP server, tests/support/dovecot.ts), and openssl (the webhook tests'
// HTTPS receiver makes its own certificate, tests/support/webhook-receiver.ts). Installed when missing, so
// `npm test` works on a fresh machine.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";

const asRoot = process.getuid?.() === 0 ? [] : ["sudo"];

function run(args) {
  const [bin, ...rest] = [...asRoot, ...args];
  execFileSync(bin, rest, {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
}

const hasPostgres = () =>
  existsSync("/usr/lib/postgresql") &&
  readdirSync("/usr/lib/postgresql").some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/pg_ctl`));

const missing = [];
// A CHROMIUM_PATH of one's own is used as it is; the default is Debian's package.
if (!process.env.CHROMIUM_PATH && !existsSync("/usr/bin/chromium-headless-shell"))
  missing.push("chromium-headless-shell");
if (!hasPostgres()) missing.push("postgresql");
if (!existsSync("/usr/bin/soffice")) missing.push("libreoffice-writer-nogui");
if (!existsSync("/usr/bin/pdftotext")) missing.push("poppler-utils");
if (!existsSync("/usr/bin/openssl")) missing.push("openssl");
const needsDovecot = !existsSync("/usr/sbin/dovecot");
if (needsDovecot) missing.push("dovecot-imapd");

if (missing.length > 0) {
  console.log(`Installing Debian packages the tests need: ${missing.join(", ")}`);
  run(["apt-get", "update", "-qq"]);
  run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", ...missing]);
}

// The tests start Dovecots of their own; a system one on port 143 would only be in the way. In
// containers the package's start is refused anyway (policy-rc.d); elsewhere it is stopped here.
if (needsDovecot) {
  for (const action of ["stop", "disable"]) {
    try {
      run(["systemctl", action, "dovecot.service", "dovecot.socket"]);
    } catch {
      // No systemd (a container): nothing was started.
    }
  }
}
