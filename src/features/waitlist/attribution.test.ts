import { describe, expect, test } from "vitest";
import { attributionOfLanding } from "#src/features/waitlist/attribution.ts";

const SITE = "https://tieout.ai";
/** The page a lead is made on, which is not where the visit began. */
const here = { href: `${SITE}/waitlist`, referrer: "" };

describe("attributionOfLanding", () => {
  test("the noted landing gives the campaign, its path and the other site that sent the visitor", () => {
    const noted = [
      `${SITE}/?utm_source=x&utm_campaign=y`,
      "https://partner.example.net/articles/close",
    ];
    expect(attributionOfLanding(noted, here)).toEqual({
      utm_source: "x",
      utm_campaign: "y",
      referrer: "https://partner.example.net/articles/close",
      landing_path: "/?utm_source=x&utm_campaign=y",
    });
  });

  test("a landing referred by a page of the site takes that page, whose note never ran, as the landing", () => {
    const noted = [`${SITE}/waitlist`, `${SITE}/?utm_source=x&utm_campaign=y`];
    expect(attributionOfLanding(noted, here)).toEqual({
      utm_source: "x",
      utm_campaign: "y",
      landing_path: "/?utm_source=x&utm_campaign=y",
    });
  });

  test("a shared link's referral code is kept; anything that is not a code is left out", () => {
    const code = "0123456789abcdef";
    expect(attributionOfLanding([`${SITE}/waitlist?ref=${code.toUpperCase()}`, ""], here)).toEqual({
      ref: code,
      landing_path: "/waitlist",
    });
    for (const ref of ["", "0123", `${code}0`, "0123456789abcdeg", "%00"])
      expect(attributionOfLanding([`${SITE}/waitlist?ref=${ref}`, ""], here)).toEqual({
        landing_path: "/waitlist",
      });
  });

  test("without a note (storage off) or with one it did not write, the page itself is the landing", () => {
    const arrived = { href: `${SITE}/waitlist?utm_source=z`, referrer: "https://search.example" };
    const expected = {
      utm_source: "z",
      referrer: "https://search.example",
      landing_path: "/waitlist?utm_source=z",
    };
    for (const noted of [null, "text", [1, 2], ["not a url", ""], { href: SITE }])
      expect(attributionOfLanding(noted, arrived)).toEqual(expected);
  });

  test("a direct visit, or a referrer that is no address, keeps the path alone", () => {
    expect(attributionOfLanding([`${SITE}/security`, ""], here)).toEqual({
      landing_path: "/security",
    });
    expect(attributionOfLanding([`${SITE}/security`, "android-app://x y"], here)).toEqual({
      landing_path: "/security",
    });
  });

  test("a landing on a mail's link keeps its campaign and path, never its token", () => {
    const noted = [`${SITE}/signup?invite=tokenOfSomeoneElse123&utm_source=mail&next=/account`, ""];
    expect(attributionOfLanding(noted, here)).toEqual({
      utm_source: "mail",
      landing_path: "/signup?utm_source=mail",
    });
    expect(
      attributionOfLanding([`${SITE}/waitlist/remove?token=abcdefghijklmnopqrstuvwxyz`, ""], here),
    ).toEqual({ landing_path: "/waitlist/remove" });
  });
});
