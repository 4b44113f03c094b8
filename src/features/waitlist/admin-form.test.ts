import { describe, expect, test } from "vitest";
import {
  INVITE_SELECTED,
  MAX_SELECTED,
  parseAdminForm,
  rowAction,
} from "#src/features/waitlist/admin-form.ts";
import { summarize } from "#src/features/waitlist/admin-summary.ts";

const form = (fields: [string, string][]) => {
  const data = new FormData();
  for (const [name, value] of fields) data.append(name, value);
  return data;
};

describe("the admin list's form", () => {
  test("a row's button names its action and entry; Tell them goes with a decline", () => {
    expect(
      parseAdminForm(
        form([
          ["act", rowAction("decline", 42)],
          ["tell", "42"],
        ]),
      ),
    ).toEqual({
      ok: true,
      request: { action: "decline", ids: [42], tell: [42] },
      bulk: false,
    });
    expect(
      parseAdminForm(
        form([
          ["act", "remove:7"],
          ["id", "8"],
        ]),
      ),
    ).toEqual({
      ok: true,
      request: { action: "remove", ids: [7], tell: [] },
      bulk: false,
    });
  });

  test("Invite selected invites the ticked rows, at least one and at most a hundred; it is a bulk invitation (a step-up)", () => {
    expect(
      parseAdminForm(
        form([
          ["act", INVITE_SELECTED],
          ["id", "3"],
          ["id", "5"],
        ]),
      ),
    ).toEqual({ ok: true, request: { action: "invite", ids: [3, 5], tell: [] }, bulk: true });
    expect(parseAdminForm(form([["act", INVITE_SELECTED]]))).toEqual({
      ok: false,
      message: "Select at least one entry to invite.",
    });
    const many = Array.from({ length: MAX_SELECTED + 1 }, (_, i): [string, string] => [
      "id",
      String(i + 1),
    ]);
    expect(parseAdminForm(form([["act", INVITE_SELECTED], ...many]))).toEqual({
      ok: false,
      message: "Select at most 100 entries at a time.",
    });
  });

  test("anything else is refused with a sentence", () => {
    for (const fields of [
      [],
      [["act", "promote:4"]],
      [["act", "invite:"]],
      [["act", "invite:-1"]],
      [["act", "invite:99999999999999999"]],
    ] as [string, string][][])
      expect(parseAdminForm(form(fields))).toEqual({
        ok: false,
        message: "Choose an action: a row's button or Invite selected.",
      });
    for (const fields of [
      [
        ["act", INVITE_SELECTED],
        ["id", "x"],
      ],
      [
        ["act", "decline:4"],
        ["tell", "4; DROP"],
      ],
    ] as [string, string][][])
      expect(parseAdminForm(form(fields))).toEqual({
        ok: false,
        message: "The form was not sent as the page wrote it.",
      });
  });
});

describe("what an action did, in one sentence", () => {
  test("changes first, then why nothing changed", () => {
    expect(summarize({ "already-invited": 1, invited: 3 })).toBe("3 invited, 1 already invited.");
    expect(summarize({ resent: 1, "too-soon": 2 })).toBe(
      "1 invitation sent again, 2 invited less than an hour ago (not sent again: Resend works an hour after the last invitation).",
    );
    expect(summarize({ "declined-told": 1 })).toBe("1 declined and told by mail.");
    expect(summarize({})).toBe("Nothing changed.");
  });
});
