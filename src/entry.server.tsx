import { PassThrough } from "node:stream";
import type { AppLoadContext, EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { renderToPipeableStream } from "react-dom/server";
import { NonceContext } from "#src/lib/nonce.ts";

const RENDER_TIMEOUT_MS = 5_000;

/**
 * Renders the whole document before answering (no streaming): every page is complete HTML, and
 * the server can compress and, later, cache it as one buffer.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    let status = responseStatusCode;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={loadContext.nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={loadContext.nonce} />
      </NonceContext.Provider>,
      {
        nonce: loadContext.nonce,
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
          console.error(error);
        },
      },
    );
    setTimeout(abort, RENDER_TIMEOUT_MS + 1_000);
  });
}
