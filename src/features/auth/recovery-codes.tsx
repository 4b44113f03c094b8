/**
 * Recovery codes, shown once (decision 039): the list, a text file to keep, and a plain word on
 * what they are for. Nothing here can show them again; the server keeps only their hashes.
 */
import { useEffect, useRef, useState } from "react";
import { SITE } from "#src/content/site.ts";
import { Button } from "#src/ui/button.tsx";

/** The text file's content: the codes, and a line on how each is used. */
function recoveryCodesFile(codes: readonly string[], email: string, at: Date): string {
  return [
    `${SITE.name} admin recovery codes for ${email}`,
    `Made ${at.toISOString().slice(0, 16).replace("T", " ")} UTC.`,
    "",
    "Each code works once, in place of a passkey, at /admin/verify; a new passkey is then asked for.",
    "Keep this file where you keep passwords, not beside your passkeys.",
    "",
    ...codes,
    "",
  ].join("\n");
}

export function RecoveryCodes({
  codes,
  email,
  onDone,
  doneLabel,
}: {
  codes: readonly string[];
  email: string;
  onDone: () => void;
  doneLabel: string;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [madeAt] = useState(() => new Date());
  // The file is the page's own text: a data: link, nothing fetched and nothing to clean up.
  const href = `data:text/plain;charset=utf-8,${encodeURIComponent(recoveryCodesFile(codes, email, madeAt))}`;
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="recovery-codes-heading" className="space-y-4">
      <h2
        id="recovery-codes-heading"
        ref={heading}
        tabIndex={-1}
        className="font-serif text-xl font-semibold outline-none"
      >
        Your recovery codes
      </h2>
      <p className="leading-relaxed text-ink-soft">
        If you lose your passkeys, each of these codes lets you in once, and then asks for a new
        passkey. They are shown only now: download them or write them down, and keep them apart from
        your devices.
      </p>
      <ol
        aria-label="Recovery codes"
        className="grid grid-cols-1 gap-y-1 rounded-md border border-rule bg-paper p-4 font-mono text-[0.95rem]"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className="flex flex-wrap gap-3">
        <Button asChild variant="secondary">
          <a href={href} download={`${SITE.name.toLowerCase()}-admin-recovery-codes.txt`}>
            Download as a text file
          </a>
        </Button>
        <Button type="button" onClick={onDone}>
          {doneLabel}
        </Button>
      </div>
    </section>
  );
}
