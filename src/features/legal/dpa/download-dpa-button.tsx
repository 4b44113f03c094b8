import { useState } from "react";
import type { DpaDocument } from "#src/content/legal-types.ts";
import { SITE } from "#src/content/site.ts";
import { usePublicEnv } from "#src/lib/public-env.ts";
import { Button } from "#src/ui/button.tsx";
import { useNotify } from "#src/ui/notices.tsx";

/**
 * Builds the Word file in the browser when pressed. The docx library (about 100 KB compressed) is
 * fetched only now, never with the page.
 */
export function DownloadDpaButton({ dpa }: { dpa: DpaDocument }) {
  const notify = useNotify();
  const { siteUrl } = usePublicEnv();
  const [busy, setBusy] = useState(false);

  async function handleClick() {
    setBusy(true);
    try {
      const [{ buildDpaDocument, dpaFileName }, { Packer }] = await Promise.all([
        import("#src/features/legal/dpa/build-dpa-docx.ts"),
        import("docx"),
      ]);
      const blob = await Packer.toBlob(buildDpaDocument(dpa, SITE.name, siteUrl));
      const url = URL.createObjectURL(blob);
      const link = document.createElement("a");
      link.href = url;
      link.download = dpaFileName(SITE.name);
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (error) {
      console.warn("Building the DPA failed:", error);
      notify({
        variant: "destructive",
        title: "Download Failed",
        description: "We could not build the document. Please try again.",
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Button type="button" onClick={() => void handleClick()} disabled={busy}>
      <svg
        viewBox="0 0 20 20"
        aria-hidden="true"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
      >
        <path
          d="M10 3v10m0 0l-4-4m4 4l4-4M4 15.5h12"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      {busy ? "Preparing DPA..." : "Download DPA"}
    </Button>
  );
}
