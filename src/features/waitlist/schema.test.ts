import { describe, expect, test } from "vitest";
import {
  parseEntryDetails,
  parseWaitlistEntry,
  searchableText,
} from "#src/features/waitlist/schema.ts";

describe("parseWaitlistEntry", () => {
  test("accepts the two required fields, trims, and turns blank optional ones into null", () => {
    const result = parseWaitlistEntry({
      name: "  Ada Lovelace ",
      email: " ada@example.com ",
      company: "  ",
      message: "",
    });
    expect(result).toEqual({
      ok: true,
      entry: expect.objectContaining({
        name: "Ada Lovelace",
        email: "ada@example.com",
        company: null,
        message: null,
      }) as unknown,
    });
  });

  test("a name and a company are one line; the use case keeps its paragraphs", () => {
    const result = parseWaitlistEntry({
      name: "customer,\r\n\r\nYour account is suspended.\tVerify now",
      email: "ada@example.com",
      company: "Lovelace\n  & Co",
      message: "Tax season.\n\nWorkpapers too.",
    });
    expect(result).toMatchObject({
      ok: true,
      entry: {
        name: "customer, Your account is suspended. Verify now",
        company: "Lovelace & Co",
        message: "Tax season.\n\nWorkpapers too.",
      },
    });
    expect(parseWaitlistEntry({ name: " \n\t ", email: "ada@example.com" })).toMatchObject({
      ok: false,
      fieldErrors: { name: "Please enter your name." },
    });
  });

  test("names each missing or malformed field", () => {
    const result = parseWaitlistEntry({ name: "", email: "not-an-email" });
    expect(result).toEqual({
      ok: false,
      fieldErrors: {
        name: "Please enter your name.",
        email: "Please enter a valid email address.",
      },
      formErrors: [],
    });
  });

  test("refuses wrong types and oversized fields with a sentence per field", () => {
    const result = parseWaitlistEntry({
      name: 42,
      email: ["a@b.co"],
      company: "x".repeat(201),
      message: "y".repeat(5001),
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fieldErrors.name).toBe("Full name must be text.");
    expect(result.fieldErrors.email).toBe("Email must be text.");
    expect(result.fieldErrors.company).toBe("Company must be at most 200 characters.");
    expect(result.fieldErrors.message).toBe("Use case must be at most 5,000 characters.");
  });

  test("an email over 254 characters is refused", () => {
    const result = parseWaitlistEntry({ name: "A", email: `${"a".repeat(250)}@example.com` });
    expect(result.ok).toBe(false);
  });

  test("a body that is not an object is refused as a whole", () => {
    for (const input of [null, "name=a", [1, 2], 7])
      expect(parseWaitlistEntry(input).ok).toBe(false);
  });

  test("keeps non-Latin text as it is", () => {
    const result = parseWaitlistEntry({
      name: "Zoë Ørsted-李",
      email: "zoe@example.com",
      company: "Müller & Söhne GmbH",
    });
    expect(result.ok && result.entry.name).toBe("Zoë Ørsted-李");
  });

  test("refuses control characters a person does not type (PostgreSQL cannot store NUL)", () => {
    const result = parseWaitlistEntry({
      name: "Ada\u0000",
      email: "ada@example.com",
      company: "Acme\u001b[31m",
      message: "Line one\nLine two\twith a tab",
    });
    expect(result).toEqual({
      ok: false,
      fieldErrors: {
        name: "Full name contains characters that cannot be saved (control characters).",
        company: "Company contains characters that cannot be saved (control characters).",
      },
      formErrors: [],
    });
  });

  test("attribution never costs a lead: cleaned, cut to length, or dropped", () => {
    const result = parseWaitlistEntry({
      name: "Ada",
      email: "ada@example.com",
      utm_source: "news\u0000letter",
      utm_campaign: "c".repeat(900),
      utm_term: 42,
      referrer: "   ",
    });
    expect(result).toEqual({
      ok: true,
      entry: expect.objectContaining({
        utm_source: "newsletter",
        utm_campaign: "c".repeat(500),
        utm_term: null,
        referrer: null,
      }) as unknown,
    });
  });
});

describe("searchableText", () => {
  test("a NUL, other control characters and a lone surrogate become a harmless search", () => {
    expect(searchableText("ada\u0000lovelace")).toBe("adalovelace");
    expect(searchableText("\u0000")).toBe("");
    expect(searchableText("smith\ud800 & co")).toBe("smith\ufffd & co");
    expect(searchableText("  line\nbreak\ttab  ")).toBe("line break tab");
    expect(searchableText("x".repeat(500))).toHaveLength(200);
  });
});

describe("parseEntryDetails: the owner's corrections on the confirm page", () => {
  test("follow the waitlist form's rules: one line, trimmed, a blank company is none", () => {
    expect(parseEntryDetails({ name: "  Dana\n\n Reyes ", company: "  " })).toEqual({
      ok: true,
      details: { name: "Dana Reyes", company: null },
    });
  });

  test("refuse what the form refuses, with its messages, field by field", () => {
    expect(parseEntryDetails({ name: "", company: "c".repeat(201) })).toEqual({
      ok: false,
      fieldErrors: {
        name: "Please enter your name.",
        company: "Company must be at most 200 characters.",
      },
    });
    expect(parseEntryDetails({ name: "Dana\u0000", company: null })).toMatchObject({
      ok: false,
      fieldErrors: { name: expect.stringMatching(/control characters/) as string },
    });
  });
});
