import { PassThrough } from "node:stream";
import type { EntryContext, HandleErrorFunction, RouterContextProvider } from "react-router";
import { ServerRouter } from "react-router";
import { renderToPipeableStream } from "react-dom/server";
import { loadContext } from "#src/load-context.ts";

// The server sets each request's load context under the key this build's loaders read, so it takes
// the key from here (server/render-page.ts): its own import of src/load-context.ts is another module.
export { loadContext };

const RENDER_TIMEOUT_MS = 5_000;

/**
 * Renders the whole document before answering (no streaming): every page is complete HTML, which
 * the server finishes (inline CSS, CSP hashes), compresses and, for anonymous visitors, caches.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  context: RouterContextProvider,
): Promise<Response> {
  // React Router keeps a route's action and loader headers only through that route's `headers`
  // export. Retry-After (a rate-limited form, a 503) must reach the visitor from any route, so it
  // is carried here, where no route can forget it.
  const { actionHeaders, loaderHeaders } = routerContext.staticHandlerContext;
  for (const headers of [...Object.values(actionHeaders), ...Object.values(loaderHeaders)]) {
    const retryAfter = headers.get("Retry-After");
    if (retryAfter && !responseHeaders.has("Retry-After"))
      responseHeaders.set("Retry-After", retryAfter);
  }
  return new Promise((resolve, reject) => {
    let status = responseStatusCode;
    const { pipe, abort } = renderToPipeableStream(
      <ServerRouter context={routerContext} url={request.url} />,
      {
        onAllReady() {
          const chunks: Buffer[] = [];
          const sink = new PassThrough();
          sink.on("data", (chunk: Buffer) => chunks.push(chunk));
          sink.on("end", () => {
            responseHeaders.set("Content-Type", "text/html; charset=utf-8");
            resolve(new Response(Buffer.concat(chunks), { status, headers: responseHeaders }));
          });
          sink.on("error", (error) => reject(error));
          pipe(sink);
        },
        onShellError(error: unknown) {
          reject(error instanceof Error ? error : new Error(String(error)));
        },
        onError(error: unknown) {
          status = 500;
          context.get(loadContext).reportError(error);
        },
      },
    );
    setTimeout(abort, RENDER_TIMEOUT_MS + 1_000);
  });
}

/** Errors from loaders and actions go to the server's structured log, never to the console. */
export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (!request.signal.aborted) context.get(loadContext).reportError(error);
};
