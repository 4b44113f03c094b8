import { useId } from "react";

/** The form field that carries the box: "yes" when ticked, absent when not. */
export const PRODUCT_NEWS_FIELD = "product_news";

/**
 * The unticked box that asks for product news (decision 041), on the confirmation page and on
 * /account: product news goes only to those who tick it, and each consent is recorded with when
 * and where it was given.
 */
export function ProductNewsBox({ checked }: { checked?: boolean }) {
  const hint = useId();
  return (
    <div className="rounded-md border border-rule bg-paper px-4 py-3">
      <label className="flex items-start gap-3 font-medium">
        <input
          type="checkbox"
          name={PRODUCT_NEWS_FIELD}
          value="yes"
          defaultChecked={checked ?? false}
          aria-describedby={hint}
          className="mt-1 size-4 shrink-0 accent-ledger"
        />
        Also send me product news
      </label>
      <p id={hint} className="mt-1 pl-7 text-sm text-ink-soft">
        Now and then, what the product can do that it could not before. Every such mail has a
        one-click unsubscribe, and it never changes your place on the waitlist.
      </p>
    </div>
  );
}
