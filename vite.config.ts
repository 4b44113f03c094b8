import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter()],
  build: {
    // Fonts and the poster are referenced by URL; never inline them into CSS or JS.
    assetsInlineLimit: 0,
  },
});
