import { expect, test } from "@playwright/test";
import { waitForHydration } from "#tests/support/fixtures.ts";
import { startServer } from "#tests/support/server.ts";

// A server of its own, configured with a YouTube link instead of the shipped clip.
test("with DEMO_VIDEO_URL, nothing is asked of the provider until the visitor presses play", async ({
  page,
}) => {
  const server = await startServer({
    DEMO_VIDEO_URL: "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
  });
  try {
    const thirdParty: string[] = [];
    page.on("request", (r) => {
      if (!r.url().startsWith(server.url)) thirdParty.push(r.url());
    });
    // The provider is unreachable here: answer its frame with a blank page.
    await page.route("https://www.youtube-nocookie.com/**", (route) =>
      route.fulfill({ status: 200, contentType: "text/html", body: "<p>player</p>" }),
    );
    const response = await page.goto(`${server.url}/`);
    expect(response?.headers()["content-security-policy"]).toContain(
      "frame-src 'self' https://www.youtube-nocookie.com",
    );
    await waitForHydration(page);
    const play = page.getByRole("link", { name: "Play the demo video (loads YouTube)" });
    await expect(play).toBeVisible();
    await page.waitForLoadState("networkidle");
    expect(thirdParty).toEqual([]);

    await play.click();
    const frame = page.locator("iframe");
    await expect(frame).toHaveAttribute(
      "src",
      "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&rel=0",
    );
    await expect(frame).toHaveAttribute("title", "Tieout demo video on YouTube");
    await expect.poll(() => thirdParty.length).toBeGreaterThan(0);
  } finally {
    await server.stop();
  }
});
