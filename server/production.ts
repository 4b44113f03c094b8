/**
 * What `npm start` and `node build/server/app.js` run. React and React Router choose their build
 * from NODE_ENV when they are first imported, and an import is evaluated before the module that
 * names it, so the variable is set here, in a module that imports nothing, before the server loads.
 * Development builds run only under `npm run dev` (decision 009).
 */
process.env.NODE_ENV = "production";
await import(new URL("./main.js", import.meta.url).href);
