// Prints what each page costs a first-time visitor before any interaction: HTML, JavaScript and
// CSS as transferred (brotli), and uncompressed. Usage: npx tsx scripts/page-weights.ts [baseUrl]
const base = process.argv[2] ?? "http://localhost:3000";
export {};
const PATHS = ["/", "/contact", "/terms-of-service", "/privacy-policy", "/dpa"];

async function size(url: string): Promise<{ transferred: number; raw: number }> {
  const compressed = await fetch(url, { headers: { "Accept-Encoding": "br" } });
  // fetch decodes the body; the transferred size is the Content-Length of the encoded response.
  const raw = (await compressed.arrayBuffer()).byteLength;
  const length = Number(compressed.headers.get("content-length") ?? raw);
  return { transferred: length, raw };
}

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const rows: string[] = [
  "| page | HTML (br) | JS (br) | CSS (br) | JS (raw) |",
  "| --- | --- | --- | --- | --- |",
];
for (const path of PATHS) {
  const html = await size(base + path);
  const text = await (await fetch(base + path)).text();
  const js = [...text.matchAll(/<link[^>]*rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]!);
  const css = [...text.matchAll(/<link[^>]*rel="stylesheet" href="([^"]+)"/g)].map((m) => m[1]!);
  let jsT = 0,
    jsR = 0,
    cssT = 0;
  for (const src of new Set(js)) {
    const s = await size(base + src);
    jsT += s.transferred;
    jsR += s.raw;
  }
  for (const href of new Set(css)) cssT += (await size(base + href)).transferred;
  rows.push(`| ${path} | ${kb(html.transferred)} | ${kb(jsT)} | ${kb(cssT)} | ${kb(jsR)} |`);
}
console.log(rows.join("\n"));
