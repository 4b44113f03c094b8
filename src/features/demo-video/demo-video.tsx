import { useEffect, useRef, useState, type MouseEvent } from "react";
import { SITE } from "#src/content/site.ts";
import type { DemoEmbed } from "#src/lib/demo-embed.ts";
import { NEEDS_APP } from "#src/lib/needs-app.ts";
import { useHydrated } from "#src/lib/use-hydrated.ts";

const DESCRIPTION =
  "A short, silent walk-through (captions describe each step): a messy trial balance opens in Excel, the Tieout agent categorizes each account, flags M1 adjustments with links to their source documents, ties debits to credits and the retained earnings roll-forward, and hands back a workpaper ready for review.";

/**
 * The home page demo, behind a click-to-play poster: nothing but a small, lazily loaded image (once
 * the app runs) until the visitor asks for it. Then the clip shipped with the site plays in place (silent, captioned),
 * or, with DEMO_VIDEO_URL, the provider's player loads, the first request to that third party.
 * Without JavaScript the poster is a plain link to the MP4.
 */
export function DemoVideo({ embed }: { embed: DemoEmbed | null }) {
  const { demoVideo } = SITE;
  const [playing, setPlaying] = useState(false);
  const hydrated = useHydrated();
  const video = useRef<HTMLVideoElement>(null);

  // Keyboard users land on the player they asked for.
  useEffect(() => {
    if (playing) video.current?.focus();
  }, [playing]);

  function handlePlay(event: MouseEvent<HTMLAnchorElement>) {
    event.preventDefault();
    setPlaying(true);
  }

  return (
    <figure className="m-0">
      <div className="relative aspect-video overflow-hidden rounded-xl border border-rule bg-ink shadow-[0_24px_60px_-30px_rgba(15,42,36,0.55)]">
        {playing && embed ? (
          <iframe
            className="absolute inset-0 size-full"
            src={embed.src}
            title={`${SITE.name} demo video on ${embed.provider}`}
            allow="autoplay; fullscreen; picture-in-picture; encrypted-media"
            allowFullScreen
            referrerPolicy="strict-origin-when-cross-origin"
          />
        ) : playing ? (
          <video
            ref={video}
            className="absolute inset-0 size-full"
            controls
            autoPlay
            muted
            playsInline
            poster={demoVideo.poster}
            width={demoVideo.width}
            height={demoVideo.height}
            aria-describedby="demo-description"
          >
            <source src={demoVideo.webm} type="video/webm" />
            <source src={demoVideo.mp4} type="video/mp4" />
            <track kind="captions" src={demoVideo.captions} srcLang="en" label="English" default />
          </video>
        ) : (
          <a
            href={embed ? embed.src : demoVideo.mp4}
            onClick={handlePlay}
            // Plays in place: pressed before the app runs, it waits for it (decision 040).
            {...NEEDS_APP}
            aria-describedby="demo-description"
            className="group absolute inset-0 block"
          >
            {hydrated ? (
              <picture>
                <source
                  type="image/webp"
                  srcSet={demoVideo.posterWebp.map((p) => `${p.src} ${p.width}w`).join(", ")}
                  sizes="(min-width: 1152px) 1088px, 100vw"
                />
                <img
                  src={demoVideo.poster}
                  alt=""
                  width={demoVideo.width}
                  height={demoVideo.height}
                  loading="lazy"
                  decoding="async"
                  className="size-full object-cover transition-opacity group-hover:opacity-90"
                />
              </picture>
            ) : (
              // Before the app runs, the poster costs no request: a reader who scrolls here starts
              // it (decision 009). Without JavaScript the browser shows this one instead.
              <noscript>
                <img
                  src={demoVideo.poster}
                  alt=""
                  width={demoVideo.width}
                  height={demoVideo.height}
                  className="size-full object-cover"
                />
              </noscript>
            )}
            <span className="absolute inset-0 flex flex-col items-center justify-center gap-3 bg-ink/10">
              <span className="flex size-18 items-center justify-center rounded-full bg-paper text-ink shadow-lg transition-transform group-hover:scale-105">
                <svg
                  viewBox="0 0 24 24"
                  aria-hidden="true"
                  className="ml-1 size-8"
                  fill="currentColor"
                >
                  <path d="M7 4.5v15l13-7.5z" />
                </svg>
              </span>
              <span className="rounded-md bg-ink/85 px-3 py-1.5 text-sm font-medium text-paper">
                {embed ? `Play the demo video (loads ${embed.provider})` : "Play the demo video"}
              </span>
            </span>
          </a>
        )}
      </div>
      <figcaption
        id="demo-description"
        className="mt-4 max-w-3xl text-sm leading-relaxed text-ink-soft"
      >
        {DESCRIPTION}
      </figcaption>
    </figure>
  );
}
