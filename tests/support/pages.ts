/** The public pages of the site, with a phrase each that only appears once its main content rendered. */
export const PUBLIC_PAGES = [
  { path: "/", heading: "Workpapers that tie out, prepared by AI agents inside Excel.", text: "Smart categorization" },
  { path: "/contact", heading: "Get in Touch", text: "hello@tieout.ai" },
  { path: "/terms-of-service", heading: "Terms of Service", text: "Effective June 1, 2025" },
  { path: "/privacy-policy", heading: "Privacy Policy", text: "Effective June 1, 2025" },
  { path: "/dpa", heading: "Data Processing Addendum", text: "Processor" },
] as const;
