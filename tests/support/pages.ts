/** The public pages of the site, with a phrase each that only appears once its main content rendered. */
export const PUBLIC_PAGES = [
  {
    path: "/",
    heading: "Workpapers that tie out, prepared by AI agents inside Excel.",
    text: "Smart categorization",
  },
  { path: "/contact", heading: "Get in Touch", text: "hello@tieout.ai" },
  { path: "/terms-of-service", heading: "Terms of Service", text: "Effective June 1, 2025" },
  { path: "/privacy-policy", heading: "Privacy Policy", text: "Effective June 1, 2025" },
  { path: "/dpa", heading: "Data Processing Addendum", text: "Processor" },
  { path: "/security", heading: "Security", text: "Report a vulnerability" },
  { path: "/subprocessors", heading: "Sub-processors", text: "Who processes data for us" },
  { path: "/privacy-request", heading: "Privacy request", text: "What are you asking for?" },
  { path: "/waitlist", heading: "Join the Waitlist", text: "Request Access" },
] as const;

/** Account pages: served and checked like the rest, but not listed in the sitemap. */
const ACCOUNT_PAGES = [
  { path: "/login", heading: "Sign In", text: "Forgot password?" },
  { path: "/signup", heading: "Create Account", text: "Must be at least 6 characters long" },
  { path: "/forgot-password", heading: "Reset Password", text: "Send Reset Link" },
] as const;

export const ALL_PAGES = [...PUBLIC_PAGES, ...ACCOUNT_PAGES];
