import { SITE } from "#src/content/site.ts";

/** The form field that carries the box: "yes" when ticked, absent when not. */
export const PRODUCT_NEWS_FIELD = "product_news";

/**
 * The unticked box that asks for product news (decision 041), on the confirmation page and on
 * /account: product news goes only to those who tick it, and each consent is recorded with when
 * and where it was given.
 */
export function ProductNewsBox({ checked }: { checked?: boolean }) {
  return (
    <label className="flex items-start gap-3 rounded-md border border-rule bg-paper px-4 py-3">
      <input
        type="checkbox"
        name={PRODUCT_NEWS_FIELD}
        value="yes"
        defaultChecked={checked ?? false}
        className="mt-1 size-4 shrink-0 accent-ledger"
      />
      <span>
        <span className="font-medium">Also send me product news</span>
        <span className="mt-1 block text-sm text-ink-soft">
          Now and then, what {SITE.name} can do that it could not before. Every such mail has a
          one-click unsubscribe; it never changes your place on the waitlist.
        </span>
      </span>
    </label>
  );
}
