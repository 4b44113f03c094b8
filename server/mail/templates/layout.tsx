/**
 * What every waitlist mail shares (decision 023): a light frame mail clients render (a layout
 * table, inline styles, no images, scripts or external resources), a button that is a plain link,
 * and the footer with the removal link and the postal address from the site facts. Each mail's
 * plain-text part is written from the same facts by `mailText`.
 */
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { addressLines, SITE } from "#src/content/site.ts";

const INK = "#1f2a27";
const SOFT = "#55615d";
const LEDGER = "#0f5f4f";

/** Where a waitlist mail's footer points: the list's page and the entry's removal link. */
export type MailFooter = { removeUrl: string; siteUrl: string };

function Footer({ removeUrl, siteUrl }: MailFooter) {
  return (
    <p style={{ margin: "24px 0 0", fontSize: "13px", lineHeight: "20px", color: SOFT }}>
      You receive this mail because this address was entered on the {SITE.name} waitlist at{" "}
      <a href={`${siteUrl}/waitlist`} style={{ color: SOFT }}>
        {siteUrl.replace(/^https?:\/\//, "")}
      </a>
      . Not you, or changed your mind?{" "}
      <a href={removeUrl} style={{ color: SOFT }}>
        Remove me from the waitlist
      </a>
      .
      <br />
      <br />
      {SITE.legalEntity}
      {addressLines().map((line) => (
        <span key={line}>
          <br />
          {line}
        </span>
      ))}
    </p>
  );
}

/** A paragraph of the mail's body; the last one before a button leaves more room. */
export function MailParagraph({ children, last = false }: { children: ReactNode; last?: boolean }) {
  return <p style={{ margin: last ? "0 0 24px" : "0 0 16px" }}>{children}</p>;
}

/** A small note under the button. */
export function MailNote({ children }: { children: ReactNode }) {
  return <p style={{ margin: "16px 0 0", fontSize: "14px", color: SOFT }}>{children}</p>;
}

/** The mail's one action: a link that looks like a button, and the same link written out. */
export function MailButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <>
      <table role="presentation" cellPadding={0} cellSpacing={0}>
        <tbody>
          <tr>
            <td style={{ backgroundColor: LEDGER, borderRadius: "6px" }}>
              <a
                href={href}
                style={{
                  display: "inline-block",
                  padding: "12px 22px",
                  color: "#ffffff",
                  fontWeight: 700,
                  textDecoration: "none",
                }}
              >
                {children}
              </a>
            </td>
          </tr>
        </tbody>
      </table>
      <p style={{ margin: "24px 0 0", fontSize: "14px", color: SOFT }}>
        Or open this link: <br />
        <a href={href} style={{ color: LEDGER, wordBreak: "break-all" }}>
          {href}
        </a>
      </p>
    </>
  );
}

function MailFrame({
  title,
  footer,
  children,
}: {
  title: string;
  footer: MailFooter;
  children: ReactNode;
}) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light" />
        <title>{title}</title>
      </head>
      <body style={{ margin: 0, padding: 0, backgroundColor: "#f6f4ef" }}>
        <table
          role="presentation"
          width="100%"
          cellPadding={0}
          cellSpacing={0}
          style={{ backgroundColor: "#f6f4ef" }}
        >
          <tbody>
            <tr>
              <td align="center" style={{ padding: "24px 12px" }}>
                <table
                  role="presentation"
                  width="100%"
                  cellPadding={0}
                  cellSpacing={0}
                  style={{
                    maxWidth: "560px",
                    backgroundColor: "#ffffff",
                    border: "1px solid #e3e0d8",
                    borderRadius: "8px",
                  }}
                >
                  <tbody>
                    <tr>
                      <td
                        style={{
                          padding: "28px",
                          fontFamily: "Arial, Helvetica, sans-serif",
                          fontSize: "16px",
                          lineHeight: "24px",
                          color: INK,
                        }}
                      >
                        <p style={{ margin: 0, fontSize: "20px", fontWeight: 700, color: LEDGER }}>
                          {SITE.name}
                        </p>
                        <h1 style={{ margin: "20px 0 12px", fontSize: "22px", lineHeight: "30px" }}>
                          {title}
                        </h1>
                        {children}
                        <Footer {...footer} />
                      </td>
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}

/** The HTML part: the body inside the frame, under its title and above the footer. */
export function mailHtml(title: string, footer: MailFooter, body: ReactNode): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(
    <MailFrame title={title} footer={footer}>
      {body}
    </MailFrame>,
  )}`;
}

/** The plain-text part: the body's lines, then the same footer as the HTML part. */
export function mailText(lines: string[], { removeUrl, siteUrl }: MailFooter): string {
  return [
    ...lines,
    "",
    "-- ",
    `You receive this mail because this address was entered on the ${SITE.name} waitlist at ${siteUrl}/waitlist.`,
    `Remove me from the waitlist: ${removeUrl}`,
    "",
    SITE.legalEntity,
    ...addressLines(),
    "",
  ].join("\n");
}
