import type { Config } from "@react-router/dev/config";

export default {
  appDirectory: "src",
  // Overridable so a test can build into a scratch folder (the build-secrets scan).
  buildDirectory: process.env.TIEOUT_BUILD_DIRECTORY ?? "build",
  ssr: true,
  future: {
    v8_middleware: true,
    v8_splitRouteModules: true,
    v8_viteEnvironmentApi: true,
    v8_passThroughRequests: true,
    v8_trailingSlashAwareDataRequests: true,
  },
} satisfies Config;
