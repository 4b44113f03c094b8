/**
 * The Atom feed of sub-processor changes (decision 025), written with the `feed` library from the
 * typed list (src/content/subprocessors.ts): one entry per change, newest first, each linking to
 * its place on /subprocessors. A pure function of the build and SITE_URL.
 */
import { Feed } from "feed";
import { formatDate, startOfDay } from "#src/content/dates.ts";
import { SITE } from "#src/content/site.ts";
import {
  SUBPROCESSOR_FEED_PATH,
  SUBPROCESSORS_LISTED_ON,
  subprocessorById,
  subprocessorName,
  type Subprocessor,
  type SubprocessorChange,
} from "#src/content/subprocessors.ts";

const escapeHtml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** An entry's body: the summary, its dates, and what each named sub-processor does. */
function entryHtml(change: SubprocessorChange, list: readonly Subprocessor[]): string {
  const lines = [
    change.summary,
    `Published ${formatDate(change.published)}; takes effect ${formatDate(change.effective)}.`,
  ];
  const added = change.adds ? subprocessorById(change.adds, list) : undefined;
  const removed = change.removes ? subprocessorById(change.removes, list) : undefined;
  if (added)
    lines.push(
      `New sub-processor: ${subprocessorName(added)}. ${added.purpose} Data: ${added.data} Location: ${added.location}.`,
    );
  if (removed) lines.push(`No longer used: ${subprocessorName(removed)}.`);
  return lines.map((line) => `<p>${escapeHtml(line)}</p>`).join("");
}

export function subprocessorFeed(
  siteUrl: string,
  list: readonly Subprocessor[],
  changes: readonly SubprocessorChange[],
): string {
  const page = `${siteUrl}/subprocessors`;
  const newest =
    changes
      .map((c) => c.published)
      .sort()
      .at(-1) ?? SUBPROCESSORS_LISTED_ON;
  const feed = new Feed({
    id: page,
    title: `${SITE.name} sub-processor changes`,
    description: `Every change to the companies that process personal data for ${SITE.name}, announced before it takes effect.`,
    link: page,
    language: "en",
    updated: startOfDay(newest),
    generator: false,
    feedLinks: { atom: `${siteUrl}${SUBPROCESSOR_FEED_PATH}` },
    author: { name: SITE.legalEntity, email: SITE.contactEmail, link: siteUrl },
    copyright: `© ${SITE.copyrightYear} ${SITE.legalEntity}`,
  });
  for (const change of [...changes].reverse()) {
    const link = `${page}#change-${change.id}`;
    feed.addItem({
      // The library writes title and summary as HTML: plain text is escaped first.
      title: escapeHtml(change.summary),
      id: link,
      link,
      date: startOfDay(change.published),
      published: startOfDay(change.published),
      description: escapeHtml(`Takes effect ${formatDate(change.effective)}. ${change.summary}`),
      content: entryHtml(change, list),
    });
  }
  return feed.atom1();
}
