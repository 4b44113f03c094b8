/**
 * Which compression a response uses, from the request's Accept-Encoding, through
 * @fastify/accept-negotiator (quality values, q=0 meaning "never"; decision 019).
 */
import { negotiate } from "@fastify/accept-negotiator";

export type Encoding = "br" | "gzip";
const OURS: readonly Encoding[] = ["br", "gzip"];

/**
 * The answer per header: browsers send the same few values on every request, and parsing one costs
 * more than looking it up. Bounded (cleared when full, short headers only), so no client can grow
 * it.
 */
const answers = new Map<string, Encoding | null>();
const MAX_ANSWERS = 100;
const MAX_REMEMBERED_LENGTH = 200;

/**
 * The best encoding this client accepts, or null for none. An encoding the header names with q=0
 * is never chosen, even when a `*` would otherwise stand for it.
 */
export function preferredEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  let answer = answers.get(acceptEncoding);
  if (answer === undefined) {
    answer = negotiated(acceptEncoding);
    if (acceptEncoding.length <= MAX_REMEMBERED_LENGTH) {
      if (answers.size >= MAX_ANSWERS) answers.clear();
      answers.set(acceptEncoding, answer);
    }
  }
  return answer;
}

function negotiated(acceptEncoding: string): Encoding | null {
  const header = acceptEncoding.toLowerCase();
  const refused = new Set(
    header
      .split(",")
      .map((part) => part.split(";").map((piece) => piece.trim()))
      .filter(([, ...params]) => params.some((p) => /^q=0(\.0{0,3})?$/.test(p)))
      .map(([name]) => name),
  );
  const allowed = OURS.filter((encoding) => !refused.has(encoding));
  return allowed.length === 0 ? null : negotiate(header, [...allowed]);
}
