import type { ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button } from "#src/ui/button.tsx";
import { Container } from "#src/ui/container.tsx";

/**
 * The page behind a link in a mail: a heading, a sentence, and either the one button whose POST
 * acts (carrying the link's token) or nothing more, then a way on.
 */
export function MailLinkCard({
  title,
  children,
  action,
  more,
  back,
}: {
  title: string;
  children: ReactNode;
  /** What the page offers after its sentence, in place of a button (a form of its own). */
  more?: ReactNode;
  /**
   * The button, for a link that still works; `fields` go in its form above it (its own checks are
   * the server's: the browser's are off, so every message reads the same with or without script).
   */
  action?: { token: string; label: string; fields?: ReactNode };
  back: { to: string; label: string };
}) {
  return (
    <Container className="py-14 sm:py-20">
      <section className="mx-auto max-w-xl rounded-2xl border border-rule bg-card p-6 sm:p-8">
        <h1 className="font-serif text-3xl font-semibold tracking-tight">{title}</h1>
        <p className="mt-4 leading-relaxed text-ink-soft">{children}</p>
        {action ? (
          <Form method="post" noValidate className="mt-7 space-y-5">
            <input type="hidden" name="token" value={action.token} />
            {action.fields}
            <Button type="submit" className="w-full">
              {action.label}
            </Button>
          </Form>
        ) : null}
        {more}
        <p className="mt-7">
          <Link
            to={back.to}
            className="font-semibold text-ledger-dark underline-offset-4 hover:underline"
          >
            {back.label}
          </Link>
        </p>
      </section>
    </Container>
  );
}

/** The page of a link that no longer works, however it came to be: used, expired or mistyped. */
export function GoneLinkCard({ back }: { back: { to: string; label: string } }) {
  return (
    <MailLinkCard title="This link no longer works" back={back}>
      It may have been used already, or it has expired. Nothing was changed.
    </MailLinkCard>
  );
}
