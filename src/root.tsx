import { useEffect, useRef, type ReactNode } from "react";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useLocation,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { SiteFooter } from "#src/features/site-shell/site-footer.tsx";
import { AuthProvider } from "#src/features/auth/auth-provider.tsx";
import { AuthSlot } from "#src/features/auth/auth-slot.tsx";
import { SiteHeader } from "#src/features/site-shell/site-header.tsx";
import {
  DEFER_ATTRIBUTE,
  DEFER_VALUE,
  DOCUMENT_VALUE,
  HYDRATED_ATTRIBUTE,
  HYDRATED_EVENT,
  STYLESHEET_ATTRIBUTE,
} from "#src/lib/hydration-protocol.ts";
import type { RouteHandle } from "#src/lib/route-handle.ts";
import { NoticesProvider } from "#src/ui/notices.tsx";
import {
  FailureScreen,
  ForbiddenScreen,
  NotFoundScreen,
  RefusedScreen,
} from "#src/features/errors/error-screens.tsx";
import { errorDataOf } from "#src/lib/http-errors.ts";
import { svgDataUrl } from "#src/lib/svg-data-url.ts";
import appCss from "./app.css?url";
import faviconSvg from "../public/favicon.svg?raw";
import { loadContext } from "#src/load-context.ts";

/**
 * The SVG icon travels inside every page (about 0.1 KB after compression), so a first visit asks
 * for no icon while the page loads; browsers without SVG icons take the .ico (decision 026).
 */
const FAVICON = svgDataUrl(faviconSvg);

export const links: Route.LinksFunction = () => [
  // In production the server inlines the rules each page uses and the app links the whole sheet
  // once it runs (decision 009); Vite's development server needs the link.
  ...(import.meta.env.DEV ? [{ rel: "stylesheet", href: appCss }] : []),
  { rel: "icon", href: "/favicon.ico", sizes: "32x32" },
  { rel: "icon", href: FAVICON, type: "image/svg+xml" },
  { rel: "apple-touch-icon", href: "/apple-touch-icon.png" },
];

/**
 * Headers for every page. When the root's error boundary shows an error, the error's own headers
 * (a 503's Retry-After, a 401's WWW-Authenticate) reach the visitor; other pages add nothing here.
 */
export const headers: Route.HeadersFunction = ({ errorHeaders }) => {
  const out = new Headers();
  for (const name of ["Retry-After", "WWW-Authenticate"]) {
    const value = errorHeaders?.get(name);
    if (value) out.set(name, value);
  }
  return out;
};

export function loader({ context }: Route.LoaderArgs) {
  const server = context.get(loadContext);
  return { env: server.publicEnv, user: server.sessionUser };
}

export function Layout({ children }: { children: ReactNode }) {
  const data = useRouteLoaderData<typeof loader>("root");
  const matches = useMatches();
  // Pages load their JavaScript on the first interaction unless a route has work to do at once
  // (decision 009); presses made before then are held and replayed, so none is lost. A legal text
  // is a document and comes without it (decision 034). Signed-in visitors get it at once, so their
  // session is kept in step with Firebase from the start.
  const asked = matches.map((m) => (m.handle as RouteHandle | undefined)?.hydrate);
  const hydrate =
    data?.user || asked.includes("load")
      ? undefined
      : asked.at(-1) === "never"
        ? DOCUMENT_VALUE
        : DEFER_VALUE;
  return (
    <html
      lang="en"
      {...{
        [DEFER_ATTRIBUTE]: hydrate,
        [STYLESHEET_ATTRIBUTE]: import.meta.env.DEV ? undefined : appCss,
      }}
    >
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#0f2a24" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only z-50 rounded-md bg-ink px-4 py-3 text-paper focus:not-sr-only focus:fixed focus:top-3 focus:left-3"
        >
          Skip to content
        </a>
        <NoticesProvider>
          {data ? (
            <AuthProvider config={data.env.firebase} serverUser={data.user}>
              <SiteHeader authSlot={<AuthSlot />} />
              <main id="main" tabIndex={-1} className="flex-1 pt-16 outline-none">
                {children}
              </main>
            </AuthProvider>
          ) : (
            // The root loader itself failed: no configuration, so no account controls.
            <>
              <SiteHeader authSlot={null} />
              <main id="main" tabIndex={-1} className="flex-1 pt-16 outline-none">
                {children}
              </main>
            </>
          )}
          <SiteFooter />
        </NoticesProvider>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  useEffect(() => {
    // The page came with only the CSS its own markup needs; what React renders next needs the rest.
    if (!import.meta.env.DEV && !document.querySelector(`link[href="${appCss}"]`)) {
      const sheet = document.createElement("link");
      sheet.rel = "stylesheet";
      sheet.href = appCss;
      document.head.append(sheet);
    }
    // The web app manifest (home-screen name and icons) matters once someone interacts: linked
    // in the HTML, its fetch was a round trip before the first paint (decision 009).
    if (!document.querySelector('link[rel="manifest"]')) {
      const manifest = document.createElement("link");
      manifest.rel = "manifest";
      manifest.href = "/site.webmanifest";
      document.head.append(manifest);
    }
    // Marks the moment the page became interactive (the browser tests wait for it); the page's
    // loader then replays the presses it held.
    document.documentElement.setAttribute(HYDRATED_ATTRIBUTE, "");
    window.dispatchEvent(new Event(HYDRATED_EVENT));
  }, []);
  useFocusOnNavigation();
  return <Outlet />;
}

/**
 * After a client-side page change, focus the new page's h1 (or, without one, main), as a full page
 * load would put a screen reader at the top of the new page; the next Tab continues from there.
 * The title changes in the same commit (<Meta>); the scroll position is ScrollRestoration's.
 * Changes of the hash or query alone are not page changes (decision 007).
 */
function useFocusOnNavigation() {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const main = document.getElementById("main");
    const target = main?.querySelector<HTMLElement>("h1") ?? main;
    if (!target) return;
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  }, [pathname]);
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (!isRouteErrorResponse(error)) {
    console.error(error);
    return <FailureScreen status={500} />;
  }
  const { message, requestId } = errorDataOf(error.data);
  if (error.status === 404) return <NotFoundScreen title />;
  if (error.status === 401 || error.status === 403)
    return <ForbiddenScreen status={error.status} message={message} />;
  if (error.status < 500) return <RefusedScreen status={error.status} message={message} />;
  return <FailureScreen status={error.status} message={message} requestId={requestId} />;
}
