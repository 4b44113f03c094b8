import * as Toast from "@radix-ui/react-toast";
import { createContext, useCallback, useContext, useState, type ReactNode } from "react";
import { cn } from "#src/lib/cn.ts";
import { useHydrated } from "#src/lib/use-hydrated.ts";

export type NoticeInput = {
  title: string;
  description?: string;
  variant?: "success" | "destructive";
};
type Notice = NoticeInput & { id: number };

const NotifyContext = createContext<((notice: NoticeInput) => void) | null>(null);

let nextId = 1;

/** What a screen reader says for a notice: its title, then its message. */
function spoken(notice: Notice): string {
  const title = /[.!?]$/.test(notice.title) ? notice.title : `${notice.title}.`;
  return notice.description ? `${title} ${notice.description}` : title;
}

/**
 * Notices (toasts), announced through two live regions that are in the page from its first byte:
 * screen readers reliably read what is added to a live region they already know, less so one
 * created together with its message (Radix's own announcer, which is sent to a hidden sink so
 * nothing is said twice). Destructive notices are announced assertively.
 * The viewport only mounts in the browser: Radix writes inline styles that the CSP would refuse in
 * server HTML.
 */
export function NoticesProvider({ children }: { children: ReactNode }) {
  const [notices, setNotices] = useState<Notice[]>([]);
  const hydrated = useHydrated();
  const [announcerSink, setAnnouncerSink] = useState<HTMLDivElement | null>(null);
  const notify = useCallback((notice: NoticeInput) => {
    setNotices((list) => {
      // A success answers the attempts that failed before it: their notices go with it.
      const kept =
        notice.variant === "destructive" ? list : list.filter((n) => n.variant !== "destructive");
      return [...kept.slice(-2), { ...notice, id: nextId++ }];
    });
  }, []);
  const dismiss = (id: number) => setNotices((list) => list.filter((n) => n.id !== id));

  return (
    <NotifyContext.Provider value={notify}>
      <Toast.Provider
        duration={7000}
        swipeDirection="right"
        label="Notification"
        announcerContainer={announcerSink ?? undefined}
      >
        {children}
        {notices.map((notice) => (
          <Toast.Root
            key={notice.id}
            type={notice.variant === "destructive" ? "foreground" : "background"}
            onOpenChange={(open) => {
              if (!open) dismiss(notice.id);
            }}
            data-variant={notice.variant ?? "success"}
            className={cn(
              "pointer-events-auto relative flex w-full items-start gap-3 rounded-lg border p-4 pr-11 shadow-lg",
              notice.variant === "destructive"
                ? "border-danger/30 bg-danger-soft text-danger"
                : "border-ledger/25 bg-card text-ink",
            )}
          >
            <span
              aria-hidden="true"
              className={cn(
                "mt-0.5 flex size-5 shrink-0 items-center justify-center rounded-full text-xs font-bold text-white",
                notice.variant === "destructive" ? "bg-danger" : "bg-ledger",
              )}
            >
              {notice.variant === "destructive" ? "!" : "✓"}
            </span>
            <div className="min-w-0">
              <Toast.Title className="font-semibold">{notice.title}</Toast.Title>
              {notice.description ? (
                <Toast.Description
                  className={cn(
                    "mt-0.5 text-sm",
                    notice.variant === "destructive" ? "text-danger" : "text-ink-soft",
                  )}
                >
                  {notice.description}
                </Toast.Description>
              ) : null}
            </div>
            <Toast.Close
              aria-label="Dismiss notification"
              className="absolute top-2 right-2 flex size-8 items-center justify-center rounded-md text-lg leading-none opacity-70 hover:opacity-100"
            >
              ×
            </Toast.Close>
          </Toast.Root>
        ))}
        <div aria-live="polite" className="sr-only">
          {notices
            .filter((n) => n.variant !== "destructive")
            .map((n) => (
              <p key={n.id}>{spoken(n)}</p>
            ))}
        </div>
        <div aria-live="assertive" className="sr-only">
          {notices
            .filter((n) => n.variant === "destructive")
            .map((n) => (
              <p key={n.id}>{spoken(n)}</p>
            ))}
        </div>
        <div ref={setAnnouncerSink} hidden />
        {hydrated ? (
          <Toast.Viewport className="fixed right-0 bottom-0 z-50 flex w-full max-w-md flex-col gap-2 p-4 outline-none sm:top-20 sm:bottom-auto" />
        ) : null}
      </Toast.Provider>
    </NotifyContext.Provider>
  );
}

export function useNotify(): (notice: NoticeInput) => void {
  const notify = useContext(NotifyContext);
  if (!notify) throw new Error("useNotify must be used within a NoticesProvider");
  return notify;
}
