import { useState } from "react";
import { SITE } from "#src/content/site.ts";
import type { DemoEmbed } from "#src/lib/demo-embed.ts";

const DESCRIPTION =
  "A short, silent walk-through (captions describe each step): a messy trial balance opens in Excel, the Tieout agent categorizes each account, flags M1 adjustments with links to their source documents, ties debits to credits and the retained earnings roll-forward, and hands back a workpaper ready for review.";

/**
 * The home page demo. By default the clip shipped with the site (nothing loads until play is
 * pressed); with DEMO_VIDEO_URL, a click-to-load facade so no third party is contacted before then.
 */
export function DemoVideo({ embed }: { embed: DemoEmbed | null }) {
  const { demoVideo } = SITE;
  return (
    <figure className="m-0">
      <div className="overflow-hidden rounded-xl border border-rule bg-ink shadow-[0_24px_60px_-30px_rgba(15,42,36,0.55)]">
        {embed ? (
          <EmbedFacade embed={embed} />
        ) : (
          <video
            className="block aspect-video h-auto w-full"
            controls
            muted
            playsInline
            preload="none"
            poster={demoVideo.poster}
            width={demoVideo.width}
            height={demoVideo.height}
            aria-describedby="demo-description"
          >
            <source src={demoVideo.webm} type="video/webm" />
            <source src={demoVideo.mp4} type="video/mp4" />
            <track kind="captions" src={demoVideo.captions} srcLang="en" label="English" />
            <a href={demoVideo.mp4}>Download the demo video (MP4)</a>
          </video>
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

function EmbedFacade({ embed }: { embed: DemoEmbed }) {
  const [playing, setPlaying] = useState(false);
  const title = `${SITE.name} demo video on ${embed.provider}`;
  if (playing) {
    return (
      <iframe
        className="block aspect-video h-auto w-full"
        src={embed.src}
        title={title}
        allow="autoplay; fullscreen; picture-in-picture; encrypted-media"
        allowFullScreen
        referrerPolicy="strict-origin-when-cross-origin"
      />
    );
  }
  return (
    <button
      type="button"
      onClick={() => setPlaying(true)}
      data-replay=""
      className="group relative block aspect-video w-full cursor-pointer"
      aria-describedby="demo-description"
    >
      <img
        src={SITE.demoVideo.poster}
        alt=""
        width={SITE.demoVideo.width}
        height={SITE.demoVideo.height}
        className="absolute inset-0 size-full object-cover opacity-80 transition-opacity group-hover:opacity-100"
      />
      <span className="absolute inset-0 flex flex-col items-center justify-center gap-3">
        <span className="flex size-18 items-center justify-center rounded-full bg-paper text-ink shadow-lg transition-transform group-hover:scale-105">
          <svg viewBox="0 0 24 24" aria-hidden="true" className="ml-1 size-8" fill="currentColor">
            <path d="M7 4.5v15l13-7.5z" />
          </svg>
        </span>
        <span className="rounded-md bg-ink/80 px-3 py-1.5 text-sm font-medium text-paper">
          Play the demo (loads {embed.provider})
        </span>
      </span>
    </button>
  );
}
