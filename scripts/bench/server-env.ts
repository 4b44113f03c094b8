/** The environment every server the bench starts runs with: production, loopback, no rate limit. */
export function benchServerEnv(port: number, dataDir: string): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    SITE_URL: `http://localhost:${port}`,
    DATA_DIR: dataDir,
    WAITLIST_RATE_LIMIT: "0",
    FIREBASE_API_KEY: "",
    FIREBASE_PROJECT_ID: "demo-tieout-bench",
    FIREBASE_AUTH_EMULATOR_HOST: "127.0.0.1:9299",
  };
}
