/** The database could not be opened: the server says why and exits (server/index.ts). */
export class DatabaseStartError extends Error {
  override name = "DatabaseStartError";
}
