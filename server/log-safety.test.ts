import { pino } from "pino";
import { describe, expect, test } from "vitest";
import { LOG_REDACT, maskEmail } from "#server/log-safety.ts";

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
