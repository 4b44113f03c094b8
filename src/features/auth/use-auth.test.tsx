import { renderToString } from "react-dom/server";
import { expect, test } from "vitest";
import { useAuth } from "#src/features/auth/auth-provider.tsx";

function NeedsAuth() {
  useAuth();
  return null;
}

test("useAuth outside its provider throws, saying so", () => {
  expect(() => renderToString(<NeedsAuth />)).toThrow(
    "useAuth must be used within an AuthProvider",
  );
});
