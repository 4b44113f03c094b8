/**
 * Turns a YouTube, Vimeo or Loom page address into the address of its embeddable player.
 * Used by the server to validate DEMO_VIDEO_URL and by the page to build the click-to-load facade.
 */
export type DemoEmbed = {
  provider: "YouTube" | "Vimeo" | "Loom";
  /** The player address, loaded only after the visitor presses play. */
  src: string;
  /** The origin to allow in the Content-Security-Policy frame-src. */
  origin: string;
};

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^\d{6,12}$/;
const LOOM_ID = /^[0-9a-f]{32}$/;

export function parseDemoEmbed(input: string): DemoEmbed | null {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return null;
  }
  if (url.protocol !== "https:") return null;
  const host = url.hostname.replace(/^www\./, "").replace(/^m\./, "");
  const parts = url.pathname.split("/").filter(Boolean);

  if (host === "youtube.com" || host === "youtube-nocookie.com" || host === "youtu.be") {
    let id: string | null | undefined = null;
    if (host === "youtu.be") id = parts[0];
    else if (parts[0] === "watch") id = url.searchParams.get("v");
    else if (parts[0] === "embed" || parts[0] === "shorts" || parts[0] === "live") id = parts[1];
    if (!id || !YOUTUBE_ID.test(id)) return null;
    return {
      provider: "YouTube",
      src: `https://www.youtube-nocookie.com/embed/${id}?autoplay=1&rel=0`,
      origin: "https://www.youtube-nocookie.com",
    };
  }
  if (host === "vimeo.com" || host === "player.vimeo.com") {
    const id = host === "vimeo.com" ? parts[0] : parts[0] === "video" ? parts[1] : undefined;
    if (!id || !VIMEO_ID.test(id)) return null;
    return {
      provider: "Vimeo",
      src: `https://player.vimeo.com/video/${id}?autoplay=1&dnt=1`,
      origin: "https://player.vimeo.com",
    };
  }
  if (host === "loom.com") {
    const id = parts[0] === "share" || parts[0] === "embed" ? parts[1] : undefined;
    if (!id || !LOOM_ID.test(id)) return null;
    return {
      provider: "Loom",
      src: `https://www.loom.com/embed/${id}?autoplay=1`,
      origin: "https://www.loom.com",
    };
  }
  return null;
}
