import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "src",
  // Overridable so a test can build into a scratch folder (the build-secrets scan).
  buildDirectory: process.env.TIEOUT_BUILD_DIRECTORY ?? "build",
  ssr: true,
} satisfies Config;
