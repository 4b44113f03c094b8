/** The home page's words, kept apart from its layout. */
export const HOME = {
  eyebrow: "Private beta · for accountants and tax preparers",
  headline: "Workpapers that tie out, prepared by AI agents inside Excel.",
  lede: "Tieout's agents work in the workbook you already use: they prepare workpapers, cross-reference every figure to its source and draft tax filings, so hours of manual prep become minutes of review.",
  features: [
    {
      id: "categorization",
      title: "Smart categorization",
      body: "Maps every account of a messy trial balance, finds the M1 adjustments between book and tax, and ties each entry back to the invoice, statement or ledger line it came from.",
    },
    {
      id: "reconciliation",
      title: "Reconciliation engine",
      body: "Ties out trial balances, rolls forward retained earnings and builds the supporting calculations, even when the data arrives with gaps, duplicates and mismatched account names.",
    },
    {
      id: "prep-time",
      title: "Up to 80% less prep time",
      body: "The agent does the first pass and documents each step with tickmarks and links. Your team spends its hours on judgement and review instead of keying and footing.",
    },
  ],
  steps: [
    {
      title: "Open the client's workbook",
      body: "Tieout runs as an Excel add-in. Nothing to migrate, no new file format for your staff to learn.",
    },
    {
      title: "Ask the agent for the workpaper",
      body: "Lead sheets, M1 schedules, fixed-asset roll-forwards: the agent builds them in new tabs, with formulas you can follow.",
    },
    {
      title: "Review, tick and sign off",
      body: "Every figure links to its source. You review, adjust and approve; nothing is filed without you.",
    },
  ],
  assurances: [
    {
      title: "You stay the preparer of record",
      body: "AI output is a draft for professional review. The agent shows its work so a reviewer can check every step.",
    },
    {
      title: "Client data handled as it should be",
      body: "Encrypted with TLS 1.3 in transit and AES-256 at rest, processed under a data processing addendum you can read before you sign up.",
    },
    {
      title: "Built for the way firms work",
      body: "Workpapers stay in Excel, in your document management system, under your retention policy.",
    },
  ],
} as const;
