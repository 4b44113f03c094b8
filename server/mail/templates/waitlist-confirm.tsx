/**
 * The confirmation mail of a new waitlist entry (decision 023): one component for the HTML part,
 * the plain-text part written beside it from the same facts. Light HTML that mail clients render:
 * a layout table, inline styles, no images, no scripts, no external resources.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { addressLines, SITE } from "#src/content/site.ts";

export type WaitlistConfirmMail = {
  /** The visitor's name as they typed it. */
  name: string;
  confirmUrl: string;
  removeUrl: string;
  siteUrl: string;
};

const INK = "#1f2a27";
const SOFT = "#55615d";
const LEDGER = "#0f5f4f";

function Footer({ removeUrl, siteUrl }: { removeUrl: string; siteUrl: string }) {
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

function WaitlistConfirmHtml({ name, confirmUrl, removeUrl, siteUrl }: WaitlistConfirmMail) {
  const title = `Confirm your place on the ${SITE.name} waitlist`;
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
                        <p style={{ margin: "0 0 16px" }}>Hello {name},</p>
                        <p style={{ margin: "0 0 24px" }}>
                          Thank you for joining the {SITE.name} waitlist. Please confirm that this
                          is your address, so we can email you when your spot opens.
                        </p>
                        <table role="presentation" cellPadding={0} cellSpacing={0}>
                          <tbody>
                            <tr>
                              <td style={{ backgroundColor: LEDGER, borderRadius: "6px" }}>
                                <a
                                  href={confirmUrl}
                                  style={{
                                    display: "inline-block",
                                    padding: "12px 22px",
                                    color: "#ffffff",
                                    fontWeight: 700,
                                    textDecoration: "none",
                                  }}
                                >
                                  Confirm my address
                                </a>
                              </td>
                            </tr>
                          </tbody>
                        </table>
                        <p style={{ margin: "24px 0 0", fontSize: "14px", color: SOFT }}>
                          Or open this link: <br />
                          <a href={confirmUrl} style={{ color: LEDGER, wordBreak: "break-all" }}>
                            {confirmUrl}
                          </a>
                        </p>
                        <p style={{ margin: "16px 0 0", fontSize: "14px", color: SOFT }}>
                          The link works for 14 days. If you did not ask to join, ignore this mail:
                          we will not write again unless you confirm.
                        </p>
                        <Footer removeUrl={removeUrl} siteUrl={siteUrl} />
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

function waitlistConfirmText({ name, confirmUrl, removeUrl, siteUrl }: WaitlistConfirmMail) {
  return [
    `Hello ${name},`,
    "",
    `Thank you for joining the ${SITE.name} waitlist. Please confirm that this is your address, so we can email you when your spot opens:`,
    "",
    confirmUrl,
    "",
    "The link works for 14 days. If you did not ask to join, ignore this mail: we will not write again unless you confirm.",
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

/** Subject, HTML and text of the confirmation mail. */
export function renderWaitlistConfirm(mail: WaitlistConfirmMail) {
  return {
    subject: `Confirm your place on the ${SITE.name} waitlist`,
    html: `<!DOCTYPE html>${renderToStaticMarkup(<WaitlistConfirmHtml {...mail} />)}`,
    text: waitlistConfirmText(mail),
  };
}
