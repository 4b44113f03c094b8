import { describe, expect, test } from "vitest";
import { parseDemoEmbed } from "#src/lib/demo-embed.ts";

describe("parseDemoEmbed", () => {
  test.each([
    [
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&rel=0",
    ],
    [
      "https://youtu.be/dQw4w9WgXcQ",
      "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&rel=0",
    ],
    [
      "https://youtube.com/embed/dQw4w9WgXcQ",
      "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?autoplay=1&rel=0",
    ],
    ["https://vimeo.com/76979871", "https://player.vimeo.com/video/76979871?autoplay=1&dnt=1"],
    [
      "https://player.vimeo.com/video/76979871",
      "https://player.vimeo.com/video/76979871?autoplay=1&dnt=1",
    ],
    [
      "https://www.loom.com/share/0123456789abcdef0123456789abcdef",
      "https://www.loom.com/embed/0123456789abcdef0123456789abcdef?autoplay=1",
    ],
  ])("%s plays from %s", (input, src) => {
    expect(parseDemoEmbed(input)?.src).toBe(src);
  });

  test.each([
    "http://www.youtube.com/watch?v=dQw4w9WgXcQ",
    "https://www.youtube.com/watch?v=short",
    "https://youtube.com.evil.example/watch?v=dQw4w9WgXcQ",
    "https://vimeo.com/channels/staffpicks",
    "https://www.loom.com/share/not-an-id",
    "javascript:alert(1)",
    "not a url",
  ])("%s is refused", (input) => {
    expect(parseDemoEmbed(input)).toBeNull();
  });
});
