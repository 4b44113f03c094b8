/**
 * An SVG as a `data:` URL, percent-encoding only what a URL or an HTML attribute needs encoded
 * (`%`, `#`, quotes, angle brackets and line breaks). It stays close to the SVG's own text, so
 * it is short and compresses well inside the page that carries it.
 */
export function svgDataUrl(svg: string): string {
  const escaped = svg
    .trim()
    .replace(
      /[%#"'<>\t\r\n]/g,
      (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`,
    );
  return `data:image/svg+xml,${escaped}`;
}
