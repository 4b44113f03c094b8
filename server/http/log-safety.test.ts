import { pino } from "pino";
import { describe, expect, test } from "vitest";
import { LOG_REDACT, maskEmail, serializeError } from "#server/http/log-safety.ts";

describe("maskEmail", () => {
  test("keeps the first letter and the domain only", () => {
    expect(maskEmail("jane.doe@example.com")).toBe("j***@example.com");
    expect(maskEmail("J@Example.org")).toBe("J***@Example.org");
  });

  test("never echoes something that is not an email", () => {
    expect(maskEmail("no-at-sign")).toBe("***");
    expect(maskEmail("@example.com")).toBe("***");
    expect(maskEmail("jane@")).toBe("***");
    expect(maskEmail("")).toBeNull();
    expect(maskEmail(null)).toBeNull();
  });
});

describe("LOG_REDACT", () => {
  test("censors credentials an error object or a careless call would carry", () => {
    const lines: string[] = [];
    const log = pino({ redact: LOG_REDACT }, { write: (line: string) => lines.push(line) });
    log.warn({
      req: { headers: { authorization: "Bearer secret-token", cookie: "s=secret-cookie" } },
      password: "hunter22hunter",
      body: { password: "hunter22hunter", idToken: "secret-id-token" },
    });
    const written = lines.join("");
    for (const secret of ["secret-token", "secret-cookie", "hunter22", "secret-id-token"]) {
      expect(written).not.toContain(secret);
    }
    expect(written).toContain("[redacted]");
  });
});

describe("serializeError", () => {
  test("a failed query's parameters and quoted key values never reach the log", () => {
    const cause = Object.assign(
      new Error(
        'duplicate key value violates unique constraint "x"\nKey (email)=(jane@example.com) already exists.',
      ),
      { code: "23505", detail: "Key (email)=(jane@example.com) already exists." },
    );
    const error = Object.assign(
      new Error(
        "Failed query: insert into waitlist values ($1, $2)\nparams: Jane Doe,jane@example.com",
        {
          cause,
        },
      ),
      { query: "insert …", params: ["Jane Doe", "jane@example.com"] },
    );
    const logged = JSON.stringify(serializeError(error));
    expect(logged).not.toContain("jane@example.com");
    expect(logged).not.toContain("Jane Doe");
    expect(logged).toContain("Failed query: insert into waitlist values ($1, $2)");
    expect(logged).toContain("23505");
    expect(logged).toContain("(email)=([redacted])");
  });
});
