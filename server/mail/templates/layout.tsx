/**
 * What every mail of the site looks like (decisions 023, 025): light HTML that mail clients
 * render, a layout table, inline styles, no images, no scripts, no external resources. Each
 * message is a component of its own inside this frame; its plain-text part is written beside it.
 */
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { addressLines, SITE } from "#src/content/site.ts";

export const MAIL_COLORS = { ink: "#1f2a27", soft: "#55615d", ledger: "#0f5f4f" } as const;

/** A paragraph of the body. */
export function MailText({ children, small }: { children: ReactNode; small?: boolean }) {
  return (
    <p
      style={{
        margin: "0 0 16px",
        ...(small ? { fontSize: "14px", color: MAIL_COLORS.soft } : {}),
      }}
    >
      {children}
    </p>
  );
}

/** The one call to action: a filled button, with its address written out under it. */
export function MailButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <>
      <table role="presentation" cellPadding={0} cellSpacing={0}>
        <tbody>
          <tr>
            <td style={{ backgroundColor: MAIL_COLORS.ledger, borderRadius: "6px" }}>
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
      <p style={{ margin: "24px 0 0", fontSize: "14px", color: MAIL_COLORS.soft }}>
        Or open this link: <br />
        <a href={href} style={{ color: MAIL_COLORS.ledger, wordBreak: "break-all" }}>
          {href}
        </a>
      </p>
    </>
  );
}

/** Why this mail came, how to stop it, and who sent it. */
export function MailFooter({ children }: { children: ReactNode }) {
  return (
    <p
      style={{ margin: "24px 0 0", fontSize: "13px", lineHeight: "20px", color: MAIL_COLORS.soft }}
    >
      {children}
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

function MailFrame({ title, children }: { title: string; children: ReactNode }) {
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
                          color: MAIL_COLORS.ink,
                        }}
                      >
                        <p
                          style={{
                            margin: 0,
                            fontSize: "20px",
                            fontWeight: 700,
                            color: MAIL_COLORS.ledger,
                          }}
                        >
                          {SITE.name}
                        </p>
                        <h1 style={{ margin: "20px 0 12px", fontSize: "22px", lineHeight: "30px" }}>
                          {title}
                        </h1>
                        {children}
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

/** The HTML part: the frame with `title` as its heading around `body`. */
export function renderMailHtml(title: string, body: ReactNode): string {
  return `<!DOCTYPE html>${renderToStaticMarkup(<MailFrame title={title}>{body}</MailFrame>)}`;
}

/** The plain-text part's signature: a separator, why it came, then the sender's address. */
export function textFooter(lines: readonly string[]): string[] {
  return ["-- ", ...lines, "", SITE.legalEntity, ...addressLines(), ""];
}
