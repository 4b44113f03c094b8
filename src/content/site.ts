/**
 * Site facts, stated once. Every page, the footer, metadata and the legal texts read from here.
 */
import { formatDate, type IsoDate } from "./dates.ts";

/** When the Terms and the Privacy Policy took effect, and the sub-processor list with them. */
const LEGAL_EFFECTIVE_ON: IsoDate = "2025-06-01";

export const SITE = {
  name: "Tieout",
  tagline: "Workpapers that tie out, prepared by AI agents inside Excel.",
  description:
    "Tieout puts AI agents inside Excel to prepare workpapers, cross-reference and prepare tax filings, turning hours of manual work into minutes of review.",
  contactEmail: "hello@tieout.ai",
  /** Where vulnerability reports go: the security page and /.well-known/security.txt. */
  securityEmail: "security@tieout.ai",
  legalEntity: "Tieout, Inc.",
  address: {
    street: "8 The Green, Suite A",
    city: "Dover",
    region: "DE",
    regionName: "Delaware",
    postalCode: "19901",
    country: "US",
    countryName: "United States",
  },
  supportHours: "9 AM to 5 PM ET, Monday to Friday",
  copyrightYear: 2025,
  legalEffectiveOn: LEGAL_EFFECTIVE_ON,
  legalEffectiveDate: formatDate(LEGAL_EFFECTIVE_ON),
  /** The clip shipped in public/media; DEMO_VIDEO_URL can replace it with an embed. */
  demoVideo: {
    webm: "/media/tieout-demo.webm",
    mp4: "/media/tieout-demo.mp4",
    poster: "/media/tieout-demo-poster.jpg",
    /** Poster sizes for the click-to-play facade (scripts/make-poster-images.ts). */
    posterWebp: [
      { width: 480, src: "/media/tieout-demo-poster-480.webp" },
      { width: 800, src: "/media/tieout-demo-poster-800.webp" },
      { width: 1280, src: "/media/tieout-demo-poster-1280.webp" },
    ],
    width: 1280,
    height: 720,
    captions: "/media/tieout-demo.en.vtt",
  },
} as const;

export type Site = typeof SITE;

/** The postal address as lines, in US order: street; city, state ZIP; country. */
export function addressLines(address: Site["address"] = SITE.address): string[] {
  return [
    address.street,
    `${address.city}, ${address.region} ${address.postalCode}`,
    address.countryName,
  ];
}

/** The postal address on one line, after the entity's name when given (the legal texts). */
export function postalAddress(entity?: string): string {
  return [...(entity ? [entity] : []), ...addressLines()].join(", ");
}

/** The footer's link groups, each under its heading. */
export const FOOTER_LINKS = [
  {
    id: "footer-info",
    heading: "Info",
    links: [
      { to: "/contact", label: "Contact" },
      { to: "/terms-of-service", label: "Terms of Service" },
      { to: "/privacy-policy", label: "Privacy Policy" },
      { to: "/dpa", label: "DPA" },
    ],
  },
  {
    id: "footer-trust",
    heading: "Trust",
    links: [
      { to: "/security", label: "Security" },
      { to: "/subprocessors", label: "Sub-processors" },
      { to: "/privacy-request", label: "Privacy request" },
    ],
  },
] as const;
